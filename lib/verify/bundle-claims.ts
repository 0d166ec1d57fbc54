// An export bundle's own claims (`POST /v1/evidence/export`, the chio-bridge
// export: chio-format.md §11.2, chio-format-v2.md §16.7): `uncheckpointedReceipts`
// must list exactly the (seq, id) pairs of the bundle's tool receipts that have
// no inclusion proof, once each; and its receipts must lie inside its `query`
// with the `childReceiptScope` the query implies (package-scope.ts). Read in a
// verify worker (plain data: it crosses to the log worker by structured clone),
// judged in LogAssembler once proofs are matched. A bundle has no manifest and
// no package report: what fails raises problems at the bundle's file and line.
import { type JsonObject, isJsonArray, isJsonNumber, isJsonObject, jsonTypeName } from '../json/value';
import type { ReceiptEntry } from './entries';
import { parsePackageQuery } from './package-query';
import { type ScopeClaim, type SubjectOf, evaluateScope } from './package-scope';
import { type Problem, makeProblem } from '../verdict/problems';

export interface BundleClaims {
  space: string;
  file: string;
  line: number;
  /** The orders of the bundle's receipts: [orderFrom, orderTo). */
  orderFrom: number;
  orderTo: number;
  /** `uncheckpointedReceipts`, or why it cannot be read; absent when the bundle has none. */
  uncheckpointed?: { seq: bigint; receiptId: string }[] | { error: string };
  scope?: ScopeClaim;
}

/** Reads a bundle's claims (attacker-controlled: a malformed list is an error to report, never a throw). */
export function readBundleClaims(bundle: JsonObject, at: Omit<BundleClaims, 'uncheckpointed' | 'scope'>): BundleClaims {
  const claims: BundleClaims = { ...at };
  const list = bundle.get('uncheckpointedReceipts');
  if (list !== undefined) claims.uncheckpointed = readUncheckpointed(list);
  const query = bundle.get('query');
  if (query !== undefined) {
    const parsed = parsePackageQuery(query);
    const scope = bundle.get('childReceiptScope');
    claims.scope = {
      file: at.file,
      line: at.line,
      query: parsed.ok ? parsed.query : { error: parsed.error },
      ...(scope !== undefined ? { childReceiptScope: typeof scope === 'string' ? scope : `(${jsonTypeName(scope)})` } : {}),
    };
  }
  return claims;
}

function readUncheckpointed(list: ReturnType<JsonObject['get']>): BundleClaims['uncheckpointed'] {
  if (!isJsonArray(list)) return { error: `uncheckpointedReceipts is ${jsonTypeName(list)}, not an array` };
  const out: { seq: bigint; receiptId: string }[] = [];
  for (let i = 0; i < list.length; i++) {
    const e = list[i];
    const seq = isJsonObject(e) ? e.get('seq') : undefined;
    const id = isJsonObject(e) ? e.get('receiptId') : undefined;
    const n = isJsonNumber(seq) ? seq.toBigInt() : null;
    if (n === null || n < 0n || typeof id !== 'string') return { error: `uncheckpointedReceipts[${i}] needs an unsigned integer seq and a string receiptId` };
    out.push({ seq: n, receiptId: id });
  }
  return out;
}

/** The bundle's checks over its receipts (those of its space with an order in its range, in log order). */
export function evaluateBundle(claims: BundleClaims, receipts: readonly ReceiptEntry[], subjectOf?: SubjectOf): Problem[] {
  const problems: Problem[] = [];
  const where = { file: claims.file, line: claims.line };
  if (claims.uncheckpointed !== undefined) {
    const wrong = 'error' in claims.uncheckpointed ? [claims.uncheckpointed.error] : inventoryMismatches(claims.uncheckpointed, receipts);
    if (wrong.length) {
      const shown = wrong.slice(0, 5).join('; ') + (wrong.length > 5 ? `; and ${wrong.length - 5} more` : '');
      problems.push(makeProblem('manifest_mismatch', `the bundle's uncheckpointedReceipts does not match its proofs: ${shown}`, where));
    }
  }
  if (claims.scope) problems.push(...evaluateScope(claims.scope, receipts, subjectOf).problems);
  return problems;
}

/** §16.7: the listed pairs, once each, are exactly the tool receipts without an inclusion proof. */
function inventoryMismatches(listed: { seq: bigint; receiptId: string }[], receipts: readonly ReceiptEntry[]): string[] {
  const key = (seq: bigint | undefined, id: string) => `${seq}\u0000${id}`;
  const unproven = new Map<string, ReceiptEntry>();
  const proven = new Set<string>();
  for (const r of receipts) {
    if (r.type !== 'tool') continue;
    if (r.proofCount) proven.add(key(r.seq, r.id));
    else unproven.set(key(r.seq, r.id), r);
  }
  const out: string[] = [];
  const seen = new Set<string>();
  for (const { seq, receiptId } of listed) {
    const k = key(seq, receiptId);
    const name = `seq ${seq} (${receiptId})`;
    if (seen.has(k)) out.push(`it lists ${name} twice`);
    else if (proven.has(k)) out.push(`it lists ${name}, which has an inclusion proof`);
    else if (!unproven.has(k)) out.push(`it lists ${name}, which is not a tool receipt of the bundle`);
    seen.add(k);
  }
  for (const [k, r] of unproven) if (!seen.has(k)) out.push(`tool receipt seq ${r.seq ?? '(none)'} (${r.id}) has no inclusion proof but is not listed`);
  return out;
}
