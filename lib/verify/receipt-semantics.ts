// A package manifest's `receiptSemantics` (chio-format-v2.md §16.8.1): eight
// counters over the tool receipts, recomputed here once every receipt's checks
// have settled. Per receipt the verifier keeps one short code (kind, boundary,
// whether `is_allowed()`), shared between receipts by EntryCompactor; the
// `authorized` counter then also needs the receipt's id, signature and
// parameter_hash checks to have passed. Where a receipt's contribution cannot
// be known (a Gen A receipt, whose counting upstream is UNCONFIRMED; a
// signature that could not be checked; a line that could not be read) each
// counter is a range, and a claim inside the range is undecided, never passed.
import type { DecodedToolReceipt } from '../chio/types';
import type { ReceiptEntry } from './entries';

export const SEMANTIC_COUNTERS = [
  'mediatedDecisions',
  'traceObservations',
  'advisoryEvaluations',
  'prevent',
  'detectOnly',
  'advisoryOnly',
  'cannotSee',
  'authorized',
] as const;
export type SemanticCounter = (typeof SEMANTIC_COUNTERS)[number];
export type SemanticCounts = Record<SemanticCounter, bigint>;

const KIND_COUNTER: Record<string, SemanticCounter> = {
  mediated_decision: 'mediatedDecisions',
  trace_observation: 'traceObservations',
  advisory_evaluation: 'advisoryEvaluations',
};
const BOUNDARY_COUNTER: Record<string, SemanticCounter> = {
  prevent: 'prevent',
  detect_only: 'detectOnly',
  advisory_only: 'advisoryOnly',
  cannot_see: 'cannotSee',
};
const ALLOWED = 'allowed';

/**
 * A Gen B tool receipt's code, `<receipt_kind>/<boundary_class>[/allowed]`, where `allowed` is
 * upstream `is_allowed()`: trust_level mediated, kind mediated_decision, boundary prevent, no
 * observation_outcome, decision `{"verdict":"allow"}`. Undefined for Gen A.
 */
export function semanticsCode(r: DecodedToolReceipt): string | undefined {
  const b = r.genB;
  if (!b) return undefined;
  const allowed =
    r.trustLevel === 'mediated' &&
    b.receiptKind === 'mediated_decision' &&
    b.boundaryClass === 'prevent' &&
    b.observationOutcome === undefined &&
    r.decision?.verdict === 'allow';
  return `${b.receiptKind}/${b.boundaryClass}${allowed ? `/${ALLOWED}` : ''}`;
}

/** Each counter's possible values: `lo` counts what is certain, `hi` adds what might count. */
export interface SemanticRange {
  lo: SemanticCounts;
  hi: SemanticCounts;
  /** Why some receipts' contributions are not known (empty when lo = hi). */
  unknown: string[];
}

const zero = (): SemanticCounts => Object.fromEntries(SEMANTIC_COUNTERS.map((c) => [c, 0n])) as SemanticCounts;

/** The counters over `receipts` (tool receipts of one package), plus `unread` lines of receipts.ndjson that never became entries. */
export function semanticRange(receipts: readonly ReceiptEntry[], unread: number): SemanticRange {
  const lo = zero();
  const hi = zero();
  let genA = 0;
  let uncheckedSignature = 0;
  const bump = (c: SemanticCounter, certain: boolean) => {
    hi[c]++;
    if (certain) lo[c]++;
  };
  for (const r of receipts) {
    if (r.type !== 'tool') continue;
    const code = r.semantics;
    if (code === undefined) {
      // Gen A: upstream decodes it into the Gen B struct with default kind and boundary
      // (UNCONFIRMED which); its id cannot recompute, so it is never authorized.
      genA++;
      for (const c of SEMANTIC_COUNTERS) if (c !== 'authorized') hi[c]++;
      continue;
    }
    const [kind, boundary, allowed] = code.split('/');
    bump(KIND_COUNTER[kind!]!, true);
    bump(BOUNDARY_COUNTER[boundary!]!, true);
    if (allowed !== ALLOWED) continue;
    const checks = [r.checks.receipt_id, r.checks.signature, r.checks.parameter_hash];
    if (checks.some((c) => c?.status === 'fail' || c === undefined)) continue;
    const certain = checks.every((c) => c?.status === 'pass');
    if (!certain) uncheckedSignature++;
    bump('authorized', certain);
  }
  for (const c of SEMANTIC_COUNTERS) hi[c] += BigInt(unread);
  const unknown: string[] = [];
  if (genA) unknown.push(`${genA} Gen A tool receipt${genA === 1 ? '' : 's'} (how upstream counts their kind and boundary is not confirmed)`);
  if (uncheckedSignature)
    unknown.push(`${uncheckedSignature} allowed receipt${uncheckedSignature === 1 ? ' whose signature' : 's whose signatures'} could not be checked`);
  if (unread) unknown.push(`${unread} line${unread === 1 ? '' : 's'} of receipts.ndjson that could not be read`);
  return { lo, hi, unknown };
}

export type SemanticsVerdict = { status: 'pass' } | { status: 'fail'; mismatches: string[] } | { status: 'skipped'; reason: string };

/** The manifest's claim against the recomputed counters: a mismatch names the counter and both values. */
export function compareSemantics(claimed: SemanticCounts, range: SemanticRange): SemanticsVerdict {
  const mismatches: string[] = [];
  for (const c of SEMANTIC_COUNTERS) {
    const lo = range.lo[c];
    const hi = range.hi[c];
    if (claimed[c] >= lo && claimed[c] <= hi) continue;
    const actual = lo === hi ? `${lo}` : `between ${lo} and ${hi}`;
    const note = c === 'authorized' ? ' (it counts allowed receipts whose id, signature and parameter_hash verify)' : '';
    mismatches.push(`receiptSemantics.${c} says ${claimed[c]}, the tool receipts give ${actual}${note}`);
  }
  if (mismatches.length) return { status: 'fail', mismatches };
  if (range.unknown.length) return { status: 'skipped', reason: `receiptSemantics cannot be recomputed exactly: ${range.unknown.join('; ')}` };
  return { status: 'pass' };
}
