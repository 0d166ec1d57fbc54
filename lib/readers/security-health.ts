// The security view's health summary: plain sentences with a traffic-light
// status each, for a reader who is not an engineer. Every number is a link
// to the explorer rows it counts (or to the page that explains it), and
// skipped checks get a line of their own: never one green tick over checks
// that did not run (contract §1.2). Pure: sentences are data (text and
// links); the component renders them as text nodes.
import { isOtherRuntime } from '../query/runtimes';
import { CHECK_ORDER } from '../verify/check-totals';
import { isExpectedSkip } from '../verdict/check';
import { type CheckCode, checkCodeOf, reasonWords } from '../verdict/check-text';
import type { ProblemCode } from '../verdict/problems';
import type { VerificationReport } from '../verdict/report';
import { type DenialTotals, type VerificationFailures, explorerLink } from './security';
import type { VerifiedScope } from './scope';

export type HealthStatus = 'good' | 'warn' | 'bad';
export type HealthPart = string | { text: string; href: string };

export interface HealthLine {
  /** Stable name of the line (tests, anchors). */
  topic: 'verification' | 'checkpoints' | 'unread' | 'denials' | 'signers' | 'unsigned' | 'algorithm' | 'skipped';
  status: HealthStatus;
  parts: HealthPart[];
}

/** What a failed receipt's problem code means, as a short noun phrase for a sentence. */
const FAILURE_PHRASE: Partial<Record<ProblemCode, [one: string, many: string]>> = {
  signature_invalid: ['with a signature that does not verify', 'with signatures that do not verify'],
  receipt_id_mismatch: ['with an id that does not match its content', 'with ids that do not match their content'],
  semantics_invalid: ['whose kind, boundary and decision do not fit together', 'whose kind, boundary and decision do not fit together'],
  parameter_hash_mismatch: ['whose parameters do not match their hash', 'whose parameters do not match their hash'],
  algorithm_mismatch: ['naming an algorithm that disagrees with its signature', 'naming an algorithm that disagrees with their signatures'],
  untrusted_signer: ['signed by a key that is not trusted', 'signed by keys that are not trusted'],
  inclusion_failed: ['not in the checkpoint that covers it', 'not in the checkpoints that cover them'],
};

/** A skip's reason said of many receipts (the others read as check-text.ts's REASON_WORDS). */
const SKIP_PHRASE: Partial<Record<CheckCode, string>> = {
  uncheckpointed: 'no checkpoint covers them yet',
  no_key_pinned: 'no kernel key is pinned, so who signed is not checked',
};
const skipPhrase = (why: string) => {
  const code = checkCodeOf(why);
  return (code !== undefined ? SKIP_PHRASE[code] : undefined) ?? reasonWords(why);
};

const n = (x: number) => x.toLocaleString('en-US');
const plural = (x: number, one: string, many: string) => `${n(x)} ${x === 1 ? one : many}`;
/** A percentage that never rounds a non-zero share to 0 % or a partial one to 100 %. */
export function percent(part: number, whole: number): string {
  if (whole === 0) return '0%';
  const p = (100 * part) / whole;
  if (part > 0 && p < 0.1) return '<0.1%';
  if (part < whole && p > 99.9) return '>99.9%';
  return `${p >= 10 ? Math.round(p) : Math.round(p * 10) / 10}%`;
}

export interface HealthInput {
  report: VerificationReport;
  scope: VerifiedScope;
  failures: VerificationFailures;
  denials: DenialTotals;
  /** Receipts the report flags with unsigned_field / algorithm_mismatch (distinct ids). */
  unsigned: number;
  algorithm: number;
  /** Kernel keys pinned in this browser (or on the command line). */
  pinned: ReadonlySet<string>;
}

export function healthSummary(h: HealthInput): HealthLine[] {
  return [
    verificationLine(h.failures),
    checkpointLine(h.failures),
    ...(h.failures.unreadLines + h.failures.otherErrors > 0 ? [unreadLine(h.failures)] : []),
    denialLine(h.denials, h.scope),
    signerLine(h.report, h.pinned),
    h.unsigned > 0
      ? {
          topic: 'unsigned',
          status: 'warn',
          parts: [
            { text: n(h.unsigned), href: explorerLink({ problem: ['unsigned_field'] }) },
            ` ${h.unsigned === 1 ? 'receipt carries' : 'receipts carry'} fields that are not signed: anyone could have changed them.`,
          ],
        }
      : { topic: 'unsigned', status: 'good', parts: ['No receipt carries fields outside its signature.'] },
    h.algorithm > 0
      ? {
          topic: 'algorithm',
          status: 'bad',
          parts: [
            { text: n(h.algorithm), href: explorerLink({ problem: ['algorithm_mismatch'] }) },
            ` ${h.algorithm === 1 ? 'receipt names' : 'receipts name'} a signing algorithm that disagrees with its signature.`,
          ],
        }
      : { topic: 'algorithm', status: 'good', parts: ['No receipt names a signing algorithm that disagrees with its signature.'] },
    skippedLine(h.report),
  ];
}

function verificationLine(f: VerificationFailures): HealthLine {
  const parts: HealthPart[] = [
    { text: n(f.verified), href: explorerLink({ verdict: ['verified'] }) },
    ` of ${plural(f.receipts, 'receipt', 'receipts')} verified`,
  ];
  if (f.failed > 0) {
    parts.push('; ', { text: n(f.failed), href: explorerLink({ verdict: ['failed'] }) }, ' failed verification');
    const why = f.byCode.filter((c) => FAILURE_PHRASE[c.code]);
    if (why.length > 0) {
      parts.push(' (');
      why.forEach((c, i) => {
        const [one, many] = FAILURE_PHRASE[c.code]!;
        if (i > 0) parts.push(', ');
        parts.push({ text: n(c.receipts), href: c.href }, ` ${c.receipts === 1 ? one : many}`);
      });
      parts.push(')');
    }
  }
  if (f.unpinned > 0)
    parts.push(
      '; ',
      { text: n(f.unpinned), href: explorerLink({ verdict: ['unpinned'] }) },
      ' intact, but no pinned key vouches for who signed them (pin the kernel’s key to verify them)',
    );
  if (f.unverified > 0)
    parts.push(
      '; ',
      { text: n(f.unverified), href: explorerLink({ verdict: ['unverified'] }) },
      ' could not be fully checked (what vouches for them failed or is missing)',
    );
  // Records that could not be read are in none of these counts: never a green line over them.
  if (f.unreadLines > 0)
    parts.push(
      '; ',
      { text: n(f.unreadLines), href: '#failed-verification' },
      ` more ${f.unreadLines === 1 ? 'record' : 'records'} could not be read and ${f.unreadLines === 1 ? 'is' : 'are'} left out`,
    );
  parts.push('.');
  return { topic: 'verification', status: f.failed > 0 || f.unreadLines > 0 ? 'bad' : f.unverified > 0 || f.unpinned > 0 ? 'warn' : 'good', parts };
}

function checkpointLine(f: VerificationFailures): HealthLine {
  if (f.checkpoints === 0)
    return { topic: 'checkpoints', status: 'warn', parts: ['The log has no checkpoints: no receipt is anchored in a signed Merkle tree.'] };
  if (f.checkpointsFailed > 0) {
    return {
      topic: 'checkpoints',
      status: 'bad',
      parts: [
        { text: n(f.checkpointsFailed), href: '/' },
        ` of ${plural(f.checkpoints, 'checkpoint', 'checkpoints')} failed verification: the receipts they cover cannot be shown to be in the log as signed.`,
      ],
    };
  }
  return { topic: 'checkpoints', status: 'good', parts: [`All ${plural(f.checkpoints, 'checkpoint', 'checkpoints')} verified.`] };
}

function unreadLine(f: VerificationFailures): HealthLine {
  const parts: HealthPart[] = [];
  if (f.unreadLines > 0)
    parts.push(
      { text: n(f.unreadLines), href: '#failed-verification' },
      ` ${f.unreadLines === 1 ? 'record' : 'records'} of the log could not be read (a line that does not parse, a repeated key, a store row that cannot be decoded)`,
    );
  if (f.otherErrors > 0)
    parts.push(
      parts.length ? '; ' : '',
      { text: n(f.otherErrors), href: '#failed-verification' },
      ` other ${f.otherErrors === 1 ? 'error' : 'errors'} about the log as a whole`,
    );
  parts.push('.');
  return { topic: 'unread', status: 'bad', parts };
}

function denialLine(d: DenialTotals, scope: VerifiedScope): HealthLine {
  const of = ` of the ${plural(d.calls, 'verified call', 'verified calls')} with a decision`;
  if (d.calls === 0)
    return {
      topic: 'denials',
      status: 'good',
      parts: [
        `None of the ${plural(scope.rows.length, 'verified receipt', 'verified receipts')} records a call decision, so there is nothing denied to count.`,
      ],
    };
  if (d.denied === 0) return { topic: 'denials', status: 'good', parts: [`No call was denied${of}.`] };
  const parts: HealthPart[] = [
    { text: percent(d.denied, d.calls), href: d.deniedHref },
    of,
    ` ${d.denied === 1 ? 'was' : 'were'} denied (`,
    { text: n(d.denied), href: d.deniedHref },
    ')',
  ];
  const guard = d.byGuard[0];
  if (guard?.key) parts.push(`, mostly by the ${guard.key} guard (`, { text: n(guard.count), href: guard.href }, ')');
  const tool = d.byTool[0];
  if (tool?.key) parts.push(`; the most denied tool is ${tool.key} (`, { text: n(tool.count), href: tool.href }, ')');
  parts.push('.');
  return { topic: 'denials', status: 'warn', parts };
}

function signerLine(report: VerificationReport, pinned: ReadonlySet<string>): HealthLine {
  const keys = report.keys;
  if (keys.length === 0) return { topic: 'signers', status: 'warn', parts: ['No signing key was seen in the log.'] };
  const loose = keys.filter((k) => !pinned.has(k.key));
  if (loose.length === 0)
    return { topic: 'signers', status: 'good', parts: [`${keys.length === 1 ? 'The signer is' : `All ${n(keys.length)} signers are`} pinned as trusted.`] };
  const link = { text: keys.length === 1 ? 'only signer' : n(loose.length), href: explorerLink({ kernelKey: loose.map((k) => k.key) }) };
  const why = `${loose.length === 1 ? 'its signatures show' : 'their signatures show'} the log is intact, not who signed it (`;
  return {
    topic: 'signers',
    status: 'warn',
    parts:
      keys.length === 1
        ? ["The log's ", link, ` is not pinned: ${why}`, { text: 'pin keys', href: '/trust' }, ').']
        : [
            link,
            ` of ${plural(keys.length, 'signer', 'signers')} ${loose.length === 1 ? 'is' : 'are'} not pinned: ${why}`,
            { text: 'pin keys', href: '/trust' },
            ').',
          ],
  };
}

/**
 * Skipped checks per check name, and why (in contract order), over Chio
 * receipts: a ZeroClaw tag without its key or a CodeWhale receipt's absent
 * signature is not a Chio signature left unchecked (the overview counts those
 * per runtime). The same totals as lib/verify/check-totals, counting only the
 * skips: one for-in pass without per-receipt arrays (a million receipts in
 * tens of milliseconds).
 */
export function skippedChecks(report: VerificationReport): { name: string; total: number; why: Map<string, number> }[] {
  const byName = new Map<string, { name: string; total: number; why: Map<string, number> }>();
  for (const r of report.receipts) {
    if (isOtherRuntime(r.type)) continue;
    for (const name in r.checks) {
      if (r.checks[name] !== 'skipped') continue;
      let t = byName.get(name);
      if (!t) byName.set(name, (t = { name, total: 0, why: new Map() }));
      t.total++;
      const why = r.details?.[name] ?? 'no reason given';
      t.why.set(why, (t.why.get(why) ?? 0) + 1);
    }
  }
  const rank = (n: string) => (CHECK_ORDER.includes(n) ? CHECK_ORDER.indexOf(n) : CHECK_ORDER.length);
  return [...byName.values()].sort((a, b) => rank(a.name) - rank(b.name));
}

export function skippedLine(report: VerificationReport): HealthLine {
  const skipped = skippedChecks(report);
  // A log that mixes runtimes says whose receipts the line is about.
  const chio = report.receipts.some((r) => isOtherRuntime(r.type)) ? ' Chio' : '';
  if (skipped.length === 0) return { topic: 'skipped', status: 'good', parts: [`No check was skipped on any${chio} receipt.`] };
  const parts: HealthPart[] = [chio ? 'Checks skipped on Chio receipts: ' : 'Checks skipped: '];
  skipped.forEach((t, i) => {
    const [why] = [...t.why].sort((a, b) => b[1] - a[1])[0]!;
    if (i > 0) parts.push('; ');
    parts.push(`${t.name} on ${plural(t.total, 'receipt', 'receipts')} (${t.why.size === 1 ? '' : 'mostly: '}${skipPhrase(why)})`);
  });
  parts.push('.');
  // An uncheckpointed tail is normal for the newest receipts, and an envelope without an output
  // (a denial, a stream) has nothing to hash; any other skip is something left unchecked.
  const concern = skipped.some((t) => [...t.why.keys()].some((why) => !isExpectedSkip(t.name, checkCodeOf(why))));
  return { topic: 'skipped', status: concern ? 'warn' : 'good', parts };
}
