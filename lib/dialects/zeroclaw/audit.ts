// ZeroClaw's receipts in the report (issue 8, other-dialects.md §1): the records
// set aside for the ZeroClaw family (tool-call records, chat messages, trace
// events, text) are audited once the whole log is in, since a reply's claims
// need every tool result: one report receipt of type `zeroclaw` per distinct
// receipt string, its explorer row, the facts its page shows, and problems
// (`fabricated_tool_call`, `signature_invalid`, `parse_error`).
//
// Honesty rule: a ZeroClaw tag proves anything only to the holder of its key,
// which ZeroClaw never keeps: without the key the `signature` check is skipped
// ("key not available (ephemeral)") and the receipt is at best `unverified`.
// Pure; HMAC through WebCrypto.
import { bytesEqual } from '../../bytes/hex';
import { parseJson } from '../../json/parse';
import { isJsonObject } from '../../json/value';
import { type CheckResult, fail, pass, skipped } from '../../verdict/check';
import type { DialectAudit, DialectItem, DialectOptions, DialectReceipt } from '../../verdict/family';
import { type Problem, makeProblem } from '../../verdict/problems';
import { finish, view } from '../receipt-row';
import { type ClaimOutcome, checkClaims } from './claims';
import { type ZcCallData, type ZcItem, importZeroclaw } from './import';
import { hmacKey, hmacSha256, parseZcReceipt, toBase64Url, zcMacInput, zeroclawArgsJson } from './receipt';

/** Audits the ZeroClaw records of a log, with the HMAC key when the user supplied it. */
export async function auditZeroclaw(items: readonly DialectItem[], options: DialectOptions): Promise<DialectAudit> {
  const problems: Problem[] = [];
  const zc: ZcItem[] = [];
  for (const item of items) {
    if (item.kind === 'zc-text') {
      zc.push({ kind: item.kind, value: item.text, file: item.file, line: item.line, order: item.order });
      continue;
    }
    const parsed = parseJson(item.text);
    if (!parsed.ok || !isJsonObject(parsed.value)) continue; // RecordVerifier parsed it already
    zc.push({ kind: item.kind as ZcItem['kind'], value: parsed.value, file: item.file, line: item.line, order: item.order });
  }
  if (zc.length === 0) return { receipts: [], problems };
  return { receipts: await zeroclaw(zc, options.hmacKey ? await hmacKey(options.hmacKey) : null, problems), problems };
}

async function zeroclaw(items: ZcItem[], key: CryptoKey | null, problems: Problem[]): Promise<DialectReceipt[]> {
  const imported = importZeroclaw(items);
  for (const m of imported.malformed) problems.push(makeProblem('parse_error', m.message, { file: m.file, line: m.line }));
  const outcomes = checkClaims(imported.calls, imported.claims);
  // One row per distinct receipt string, at its first appearance (a tool result, or a claim when no result carries it).
  const byReceipt = new Map<string, { order: number; first: { file: string; line: number }; calls: ZcCallData[]; claims: ClaimOutcome[] }>();
  const entry = (receipt: string, order: number, at: { file: string; line: number }) => {
    let e = byReceipt.get(receipt);
    if (!e) byReceipt.set(receipt, (e = { order, first: { file: at.file, line: at.line }, calls: [], claims: [] }));
    else if (order < e.order) Object.assign(e, { order, first: { file: at.file, line: at.line } });
    return e;
  };
  for (const c of imported.calls) entry(c.receipt, c.order, c).calls.push(c);
  outcomes.forEach((o, i) => entry(o.claim.receipt, imported.claims[i]!.order, o.claim).claims.push(o));
  const rows: DialectReceipt[] = [];
  for (const [receipt, e] of byReceipt) {
    const results: Record<string, CheckResult> = {};
    const where = { receipt_id: receipt, ...e.first };
    const facts: [string, string][] = [];
    const parsed = parseZcReceipt(receipt);
    const toolName = e.calls.find((c) => c.toolName !== undefined)?.toolName ?? e.claims.find((o) => o.claim.toolName !== undefined)?.claim.toolName;
    if (toolName !== undefined) facts.push(['Tool', toolName]);
    if (!parsed.ok) {
      results.parse = fail('zc_not_a_receipt', parsed.reason);
      problems.push(makeProblem('parse_error', `${receipt}: not a ZeroClaw receipt: ${parsed.reason}`, where));
    } else {
      results.parse = pass();
      facts.push([
        'Receipt time',
        `${new Date(Number(parsed.timestamp) * 1000).toISOString().replace('.000Z', 'Z')} (${parsed.timestamp}, seconds on the runtime's clock)`,
      ]);
      const sig = await zcSignature(parsed, e.calls, key, facts);
      results.signature = sig;
      if (sig.status === 'fail') problems.push(makeProblem('signature_invalid', `${receipt}: ${sig.detail}`, where));
    }
    for (const c of e.calls)
      facts.push([
        'Carried by',
        `${c.via === 'record' ? 'tool-call record' : c.via === 'trace' ? 'trace log event' : c.via === 'debug' ? 'debug log line' : 'tool result'} at ${c.file}:${c.line}`,
      ]);
    if (e.claims.length > 0) {
      const failed = e.claims.filter((o) => o.status === 'fail');
      const unchecked = e.claims.filter((o) => o.status === 'skipped');
      results.claims =
        failed.length > 0
          ? fail(
              'claims_failed',
              failed.map((o) => o.message),
            )
          : unchecked.length > 0
            ? skipped('claims_unchecked', unchecked[0]!.message)
            : pass('claims_matched', e.claims.length);
      for (const o of e.claims) {
        facts.push([
          o.claim.via === 'block' ? 'Listed in a Tool receipts block' : 'Quoted in a reply',
          `${o.claim.file}:${o.claim.line}: ${o.status}${o.status === 'pass' ? '' : `: ${o.message}`}`,
        ]);
        if (o.status === 'fail') problems.push(makeProblem('fabricated_tool_call', o.message, { receipt_id: receipt, file: o.claim.file, line: o.claim.line }));
      }
    }
    facts.push([
      'What it proves',
      'An HMAC-SHA256 tag under a key only the ZeroClaw runtime held, for one receipt scope: with that key it shows this tool ran with these arguments and returned this output; without it, only that the string is well-formed and that replies quote receipts their turn produced.',
    ]);
    const report = finish(
      'zeroclaw',
      receipt,
      results,
      e.first,
      (r) => r.parse?.status === 'pass' && r.signature?.status === 'pass' && (r.claims === undefined || r.claims.status === 'pass'),
    );
    const time = parsed.ok && parsed.timestamp <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(parsed.timestamp) : null;
    rows.push({ report, view: view(report, e.order, toolName !== undefined ? { toolName } : {}, time), facts });
  }
  return rows;
}

/**
 * The tag recomputed with the user's key from every copy of the call the log holds. A receipt
 * belongs to one call: every tool-call record carrying it must recompute (a tampered copy beside
 * an intact one fails the receipt), and a transcript's copy decides only when it matches, since it
 * holds the output as the model saw it.
 */
async function zcSignature(
  parsed: { timestamp: bigint; tag: Uint8Array },
  calls: ZcCallData[],
  key: CryptoKey | null,
  facts: [string, string][],
): Promise<CheckResult> {
  // Each copy with its arguments as ZeroClaw serializes them (once), a tool-call record's raw output first.
  const usable = calls
    .filter((c) => c.toolName !== undefined && c.args !== undefined && c.result !== undefined)
    .sort((a, b) => (a.via === 'record' ? 0 : 1) - (b.via === 'record' ? 0 : 1))
    .map((call) => ({ call, args: zeroclawArgsJson(call.args!) }));
  const shown = usable[0];
  if (shown) {
    if (shown.args.ok) facts.push(['Arguments (as ZeroClaw serializes them)', shown.args.text]);
    const result = shown.call.result!;
    facts.push([
      shown.call.via === 'record' ? 'Result' : 'Result (as the model saw it)',
      result.length > 4000 ? `${result.slice(0, 4000)}… (${result.length} characters)` : result,
    ]);
  }
  if (!key) return skipped('key_ephemeral');
  if (!shown) return skipped('zc_call_not_in_log');
  const outcomes = await Promise.all(
    usable.map(async ({ call, args }) => {
      if (!args.ok) return { call, matches: null, reason: args.reason, tag: null };
      const tag = await hmacSha256(key, zcMacInput(call.toolName!, args.text, call.result!, parsed.timestamp));
      return { call, matches: bytesEqual(tag, parsed.tag), reason: '', tag };
    }),
  );
  const where = (c: ZcCallData) => `${c.file}:${c.line}`;
  const forged = outcomes.find((o) => o.call.via === 'record' && o.matches === false);
  if (forged) return fail('zc_tag_forged', forged.call.toolName!, parsed.timestamp, where(forged.call), toBase64Url(forged.tag!));
  const good = outcomes.find((o) => o.matches === true);
  if (good) return pass('zc_tag_recomputed', good.call.toolName!, parsed.timestamp, where(good.call));
  const unreadable = outcomes.find((o) => o.matches === null);
  if (unreadable && !outcomes.some((o) => o.matches === false)) return skipped('zc_args_unserializable', unreadable.reason);
  // A transcript holds the output after ZeroClaw's truncation and media rewriting, not the raw output it MACed.
  const seen = outcomes.find((o) => o.matches === false)!.call;
  return skipped('zc_transcript_differs', where(seen));
}
