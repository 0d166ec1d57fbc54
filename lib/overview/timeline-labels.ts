// Plain-English labels for the checkpoint timeline's segments (titles, aria
// labels, the selection panel). Pure; see checkpoint-coverage.ts for the data.
// Details come from the log's own records: the caller renders them as text.
import { type ReportCheckpoint, checkpointState } from '../verdict/report';
import type { CoverageLane, CoverageRun, Overlap, SeqRange } from './checkpoint-coverage';

export const formatSeq = (n: bigint): string => n.toLocaleString('en-US');

/** A checkpoint's state in words (part 2 §11: never "verified" for a signer nobody pinned). */
const STATE_WORDS = { verified: 'verified', failed: 'failed', unpinned: 'intact, signer not pinned' } as const;

export function formatRange(r: SeqRange): string {
  return r.start === r.end ? `seq ${formatSeq(r.start)}` : `seq ${formatSeq(r.start)}–${formatSeq(r.end)}`;
}

export interface FailingCheck {
  check: string;
  /** `fail`, or for a check a verified checkpoint needs: `skipped` or `not run`. */
  status: string;
  detail?: string;
}

/** Why a checkpoint failed: its failed checks, or (none failed) the needed checks that did not pass (§6). */
export function failingChecks(c: ReportCheckpoint): FailingCheck[] {
  const withDetail = (check: string, status: string): FailingCheck => {
    const detail = c.details?.[check];
    return detail === undefined ? { check, status } : { check, status, detail };
  };
  const failed = Object.entries(c.checks)
    .filter(([, s]) => s === 'fail')
    .map(([name]) => withDetail(name, 'fail'));
  if (failed.length > 0 || c.verdict !== 'failed') return failed;
  return (['signature', 'structure'] as const).filter((n) => c.checks[n] !== 'pass').map((n) => withDetail(n, c.checks[n] ?? 'not run'));
}

export function describeChecks(list: FailingCheck[]): string {
  return list.map((f) => `${f.check} ${f.status}${f.detail ? ` (${f.detail})` : ''}`).join('; ');
}

export function describeRun(run: CoverageRun): string {
  const cps = run.checkpoints;
  const range = formatRange(run);
  if (cps.length === 1) {
    const c = cps[0]!;
    const why = c.verdict === 'failed' ? `: ${describeChecks(failingChecks(c))}` : '';
    return `Checkpoint ${formatSeq(c.checkpoint_seq)} (${schemaName(c.schema)}), ${range}: ${STATE_WORDS[checkpointState(c)]}${why} (${c.file}:${c.line})`;
  }
  const which = `${cps.length} checkpoints (${formatSeq(cps[0]!.checkpoint_seq)} to ${formatSeq(cps[cps.length - 1]!.checkpoint_seq)})`;
  if (run.verdict !== 'mixed') return `${which}, ${range}: all ${STATE_WORDS[run.verdict]}`;
  const failed = cps.filter((c) => c.verdict === 'failed').length;
  const unpinned = cps.filter((c) => checkpointState(c) === 'unpinned').length;
  return `${which}, ${range}: ${failed} failed, ${cps.length - failed - unpinned} verified${unpinned > 0 ? `, ${unpinned} ${STATE_WORDS.unpinned}` : ''}`;
}

export function describeGap(g: SeqRange): string {
  const n = g.end - g.start + 1n;
  return `Gap, ${formatRange(g)}: no checkpoint claims ${n === 1n ? 'this seq' : `these ${formatSeq(n)} seqs`}`;
}

export function describeOverlap(o: Overlap): string {
  return `Overlap, ${formatRange(o)}: claimed by checkpoint ${formatSeq(o.seqs[0])} and by checkpoint ${formatSeq(o.seqs[1])}`;
}

export function describeTail(lane: CoverageLane): string {
  const parts = lane.tail.parts.map(
    (p) =>
      `${p.count.toLocaleString('en-US')} ${p.type}${p.minSeq !== undefined && p.maxSeq !== undefined ? ` (${formatRange({ start: p.minSeq, end: p.maxSeq })})` : ''}`,
  );
  const n = lane.tail.count;
  return `Uncheckpointed tail: ${n.toLocaleString('en-US')} receipt${n === 1 ? '' : 's'} no checkpoint covers yet: ${parts.join(', ')}`;
}

/** One line per lane: how many checkpoints, their verdicts, the covered range, gaps, overlaps and tail. */
export function describeLane(lane: CoverageLane): string {
  const bits: string[] = [];
  if (lane.checkpoints === 0) bits.push('no checkpoints');
  else {
    const unpinned = lane.runs.reduce((n, r) => n + r.checkpoints.filter((c) => checkpointState(c) === 'unpinned').length, 0);
    const verified = lane.checkpoints - lane.failed - unpinned;
    const parts = [
      verified > 0 ? `${verified} verified` : '',
      unpinned > 0 ? `${unpinned} ${STATE_WORDS.unpinned}` : '',
      lane.failed > 0 ? `${lane.failed} failed` : '',
    ].filter(Boolean);
    const verdicts = parts.length === 1 ? `all ${parts[0]!.replace(/^\d+ /, '')}` : parts.join(', ');
    bits.push(`${lane.checkpoints.toLocaleString('en-US')} checkpoint${lane.checkpoints === 1 ? '' : 's'}, ${verdicts}`);
    if (lane.covered) bits.push(`covering ${formatRange(lane.covered)}`);
    bits.push(lane.gaps.length === 0 ? 'no gaps' : `${lane.gaps.length} gap${lane.gaps.length === 1 ? '' : 's'}`);
    bits.push(lane.overlaps.length === 0 ? 'no overlaps' : `${lane.overlaps.length} overlap${lane.overlaps.length === 1 ? '' : 's'}`);
  }
  bits.push(`${lane.tail.count.toLocaleString('en-US')} receipt${lane.tail.count === 1 ? '' : 's'} not yet checkpointed`);
  return bits.join('; ');
}

/** `chio.checkpoint_statement.v2` → `v2`; anything else as written (shortened). */
export function schemaName(schema: string): string {
  const m = /^chio\.checkpoint_statement\.(v\d+)$/.exec(schema);
  return m ? m[1]! : schema.length > 40 ? `${schema.slice(0, 40)}…` : schema;
}

/**
 * Which checkpoint schema covers which checkpoints, and what the v2 chain check found (format §16):
 * e.g. "v1: checkpoints 1–12. v2 (signed chain_root): checkpoints 13–24; the chain recomputes for 12,
 * fails for 0, could not be checked for 0." Runs of one schema in seq order; null for no checkpoints.
 */
export function describeSchemas(checkpoints: readonly ReportCheckpoint[]): string | null {
  if (checkpoints.length === 0) return null;
  const sorted = [...checkpoints].sort((a, b) => (a.checkpoint_seq < b.checkpoint_seq ? -1 : a.checkpoint_seq > b.checkpoint_seq ? 1 : 0));
  const runs: { schema: string; from: bigint; to: bigint }[] = [];
  for (const c of sorted) {
    const last = runs[runs.length - 1];
    if (last && last.schema === c.schema) last.to = c.checkpoint_seq;
    else runs.push({ schema: c.schema, from: c.checkpoint_seq, to: c.checkpoint_seq });
  }
  const shown = runs.slice(0, 6).map((r) => {
    const span = r.from === r.to ? `checkpoint ${formatSeq(r.from)}` : `checkpoints ${formatSeq(r.from)}–${formatSeq(r.to)}`;
    return `${schemaName(r.schema)}${r.schema.endsWith('.v2') ? ' (signed chain_root)' : ''}: ${span}`;
  });
  const more = runs.length > 6 ? ` (and ${runs.length - 6} more runs)` : '';
  const v2 = sorted.filter((c) => c.checks.chain !== undefined);
  const count = (st: string) => v2.filter((c) => c.checks.chain === st).length;
  const chain =
    v2.length > 0
      ? ` The chain recomputes for ${count('pass')} of ${v2.length} v2 checkpoints, fails for ${count('fail')}, could not be checked for ${count('skipped')}.`
      : '';
  return `${shown.join('. ')}${more}.${chain}`;
}
