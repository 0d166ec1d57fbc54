// The overview's checkpoint timeline as data (contract §5 checkpoint checks,
// §6 the uncheckpointed tail, §8 report): per source, the seq ranges its
// checkpoints claim, merged into runs, the gaps and overlaps between batches,
// and the receipts no checkpoint covers yet. Pure; the component only draws it.
//
// Scale: a million receipts come with ten thousand checkpoints, so adjacent
// same-verdict checkpoints are merged and a lane never holds more than
// RUN_BUDGET runs. A checkpoint that failed, or that a problem names, stays a
// run of its own (so a link can land on it) while the budget allows.
//
// The report carries no seq-space id, only files: a lane is a checkpoint file
// (`checkpoints.ndjson`, `<store>#kernel_checkpoints`). Two packages opened
// together both name theirs `checkpoints.ndjson` and so share a lane.
import { checkCodeOf } from '../verdict/check-text';
import { type ReportCheckpoint, type ReportReceipt, type VerificationReport, checkpointState } from '../verdict/report';

/** `unpinned`: verified checkpoints whose signer no pinned key vouches for (part 2 §11), drawn apart from verified. */
export type RunVerdict = 'verified' | 'failed' | 'unpinned' | 'mixed';

export interface SeqRange {
  start: bigint;
  end: bigint;
}

/** Adjacent checkpoints of one verdict (or, past the budget, of several: `mixed`). */
export interface CoverageRun extends SeqRange {
  verdict: RunVerdict;
  /** In lane order (by batch start); one when the checkpoint stands alone. */
  checkpoints: ReportCheckpoint[];
  /** The element id of the run, the anchor of its first checkpoint. */
  id: string;
}

export interface Overlap extends SeqRange {
  /** The checkpoints claiming the range: the one reaching furthest so far, and the newcomer. */
  seqs: [bigint, bigint];
}

export interface TailPart {
  type: ReportReceipt['type'];
  count: number;
  /** The receipts' own seq range, when they have one. */
  minSeq?: bigint;
  maxSeq?: bigint;
}

export interface CoverageLane {
  key: string;
  /** The checkpoint file, or (a lane with only a tail) the receipt files. */
  label: string;
  checkpoints: number;
  failed: number;
  runs: CoverageRun[];
  gaps: SeqRange[];
  overlaps: Overlap[];
  /** The seqs the lane's checkpoints claim, first batch start to last batch end (null without checkpoints). */
  covered: SeqRange | null;
  /** Receipts whose inclusion was skipped as `uncheckpointed`, by type. */
  tail: { count: number; parts: TailPart[] };
}

export interface Coverage {
  lanes: CoverageLane[];
  /** The drawn axis: the lowest batch start (or 1) to the last covered seq plus the longest tail. */
  axis: SeqRange;
  checkpoints: number;
  failed: number;
  tail: number;
  /** The element id for a checkpoint a problem names (by file and line, else by seq in its lane). */
  anchorFor(where: { checkpoint_seq?: number | bigint; file?: string; line?: number }): string | undefined;
}

/** Most runs one lane draws; past it, flagged checkpoints merge too, then verdicts. */
export const RUN_BUDGET = 400;

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** A checkpoint whose range is reversed (a structure failure) is drawn as its start alone. */
const endOf = (c: ReportCheckpoint) => max(c.batch_start_seq, c.batch_end_seq);

/** The source a file belongs to: a store's name before `#`, a file's folder, or '' for a package's bare names. */
export function sourceOf(file: string): string {
  const hash = file.indexOf('#');
  if (hash >= 0) return file.slice(0, hash);
  const slash = file.lastIndexOf('/');
  return slash >= 0 ? file.slice(0, slash) : '';
}

export function isUncheckpointed(r: ReportReceipt): boolean {
  return r.checks.inclusion === 'skipped' && checkCodeOf(r.details?.inclusion) === 'uncheckpointed';
}

/** `checkpoint-<file>-<seq>` with characters safe in a URL fragment; unique within `taken`. */
export function checkpointAnchor(c: ReportCheckpoint, taken: Set<string>): string {
  const base = `checkpoint-${c.file.replace(/[^A-Za-z0-9_.-]/g, '_')}-${c.checkpoint_seq}`;
  let id = taken.has(base) ? `${base}-line-${c.line}` : base;
  for (let n = 2; taken.has(id); n++) id = `${base}-line-${c.line}-${n}`;
  taken.add(id);
  return id;
}

export function buildCoverage(report: VerificationReport): Coverage {
  const byFile = new Map<string, ReportCheckpoint[]>();
  for (const c of report.checkpoints) {
    const list = byFile.get(c.file);
    if (list) list.push(c);
    else byFile.set(c.file, [c]);
  }
  const sorted = [...byFile.entries()].map(([file, list]) => [file, [...list].sort(byPosition)] as const);

  // Problems that name a checkpoint keep it apart from its neighbours.
  const index = new CheckpointIndex(sorted);
  const flagged = new Set<ReportCheckpoint>();
  for (const p of report.problems) {
    const c = index.find(p);
    if (c) flagged.add(c);
  }

  const taken = new Set<string>();
  const anchorOf = new Map<ReportCheckpoint, string>();
  const lanes: CoverageLane[] = sorted.map(([file, list]) => {
    const runs = mergeRuns(list, (c) => c.verdict === 'failed' || flagged.has(c), taken);
    for (const run of runs) for (const c of run.checkpoints) anchorOf.set(c, run.id);
    const { gaps, overlaps } = gapsAndOverlaps(list);
    const covered = list.length ? { start: list[0]!.batch_start_seq, end: list.reduce((m, c) => max(m, endOf(c)), list[0]!.batch_start_seq) } : null;
    return {
      key: file,
      label: file,
      checkpoints: list.length,
      failed: list.filter((c) => c.verdict === 'failed').length,
      runs,
      gaps,
      overlaps,
      covered,
      tail: { count: 0, parts: [] },
    };
  });
  addTails(report.receipts, lanes);

  const starts = lanes.flatMap((l) => (l.covered ? [l.covered.start] : []));
  const axisStart = starts.length ? starts.reduce(min) : 1n;
  const axisEnd = lanes.reduce((m, l) => max(m, (l.covered ? l.covered.end : axisStart - 1n) + BigInt(l.tail.count)), axisStart);
  return {
    lanes,
    axis: { start: axisStart, end: axisEnd },
    checkpoints: report.checkpoints.length,
    failed: lanes.reduce((n, l) => n + l.failed, 0),
    tail: lanes.reduce((n, l) => n + l.tail.count, 0),
    anchorFor: (where) => {
      const c = index.find(where);
      return c ? anchorOf.get(c) : undefined;
    },
  };
}

function byPosition(a: ReportCheckpoint, b: ReportCheckpoint): number {
  if (a.batch_start_seq !== b.batch_start_seq) return a.batch_start_seq < b.batch_start_seq ? -1 : 1;
  if (a.checkpoint_seq !== b.checkpoint_seq) return a.checkpoint_seq < b.checkpoint_seq ? -1 : 1;
  return a.line - b.line;
}

/** Finds the checkpoint a problem names: by file and line, else by seq in the lane of the problem's source. */
class CheckpointIndex {
  private readonly byLine = new Map<string, ReportCheckpoint>();
  private readonly bySeq = new Map<string, Map<bigint, ReportCheckpoint>>();
  private readonly laneOfSource = new Map<string, string | null>();

  constructor(lanes: (readonly [string, ReportCheckpoint[]])[]) {
    for (const [file, list] of lanes) {
      const seqs = new Map<bigint, ReportCheckpoint>();
      for (const c of list) {
        this.byLine.set(`${file}\n${c.line}`, c);
        if (!seqs.has(c.checkpoint_seq)) seqs.set(c.checkpoint_seq, c);
      }
      this.bySeq.set(file, seqs);
      const source = sourceOf(file);
      this.laneOfSource.set(source, this.laneOfSource.has(source) ? null : file); // null: ambiguous
    }
  }

  find(where: { checkpoint_seq?: number | bigint; file?: string; line?: number }): ReportCheckpoint | undefined {
    if (where.checkpoint_seq === undefined) return undefined;
    const seq = BigInt(where.checkpoint_seq);
    if (where.file !== undefined && this.bySeq.has(where.file)) {
      const exact = where.line !== undefined ? this.byLine.get(`${where.file}\n${where.line}`) : undefined;
      return exact?.checkpoint_seq === seq ? exact : this.bySeq.get(where.file)!.get(seq);
    }
    const lane = where.file !== undefined ? this.laneOfSource.get(sourceOf(where.file)) : this.bySeq.size === 1 ? [...this.bySeq.keys()][0] : undefined;
    return lane ? this.bySeq.get(lane)!.get(seq) : undefined;
  }
}

/**
 * Merges checkpoints (sorted by batch start) into runs: contiguous (next batch
 * starts right after) and of one verdict, with `alone` checkpoints apart. Over
 * the budget, `alone` is dropped; still over it, neighbouring runs are pooled
 * into RUN_BUDGET runs of mixed verdict.
 */
export function mergeRuns(list: ReportCheckpoint[], alone: (c: ReportCheckpoint) => boolean, taken: Set<string>, budget = RUN_BUDGET): CoverageRun[] {
  let groups = contiguous(list, alone);
  if (groups.length > budget) groups = contiguous(list, () => false);
  if (groups.length > budget) {
    const size = Math.ceil(groups.length / budget);
    const pooled: ReportCheckpoint[][] = [];
    for (let i = 0; i < groups.length; i += size) pooled.push(groups.slice(i, i + size).flat());
    groups = pooled;
  }
  return groups.map((cps) => {
    const verdicts = new Set(cps.map(checkpointState));
    return {
      verdict: verdicts.size === 1 ? checkpointState(cps[0]!) : 'mixed',
      checkpoints: cps,
      start: cps[0]!.batch_start_seq,
      end: cps.reduce((m, c) => max(m, endOf(c)), cps[0]!.batch_start_seq),
      id: checkpointAnchor(cps[0]!, taken),
    };
  });
}

function contiguous(list: ReportCheckpoint[], alone: (c: ReportCheckpoint) => boolean): ReportCheckpoint[][] {
  const groups: ReportCheckpoint[][] = [];
  let current: ReportCheckpoint[] | null = null;
  for (const c of list) {
    const prev = current?.[current.length - 1];
    if (current && prev && !alone(c) && !alone(prev) && checkpointState(prev) === checkpointState(c) && c.batch_start_seq === endOf(prev) + 1n) current.push(c);
    else groups.push((current = [c]));
  }
  return groups;
}

/** Seqs between batches that no checkpoint claims, and seqs claimed twice (sorted by batch start). */
export function gapsAndOverlaps(list: ReportCheckpoint[]): { gaps: SeqRange[]; overlaps: Overlap[] } {
  const gaps: SeqRange[] = [];
  const overlaps: Overlap[] = [];
  let reach: ReportCheckpoint | null = null;
  for (const c of list) {
    if (c.batch_end_seq < c.batch_start_seq) continue; // claims no range
    if (reach) {
      const end = reach.batch_end_seq;
      if (c.batch_start_seq > end + 1n) gaps.push({ start: end + 1n, end: c.batch_start_seq - 1n });
      else if (c.batch_start_seq <= end)
        overlaps.push({ start: c.batch_start_seq, end: min(c.batch_end_seq, end), seqs: [reach.checkpoint_seq, c.checkpoint_seq] });
    }
    if (!reach || c.batch_end_seq > reach.batch_end_seq) reach = c;
  }
  return { gaps, overlaps };
}

/**
 * Counts the uncheckpointed receipts into the lane of their source: the lane of
 * their own file, else the one lane of their source; otherwise a lane of their
 * own (a source without checkpoints, or one that several lanes share).
 */
function addTails(receipts: ReportReceipt[], lanes: CoverageLane[]): void {
  const laneOfFile = new Map<string, CoverageLane>();
  const bySource = new Map<string, CoverageLane | null>();
  for (const l of lanes) {
    const s = sourceOf(l.key);
    bySource.set(s, bySource.has(s) ? null : l);
  }
  const tailOnly = new Map<string, { lane: CoverageLane; files: Set<string> }>();
  const laneFor = (file: string): CoverageLane => {
    let lane = laneOfFile.get(file);
    if (lane) return lane;
    lane = lanes.find((l) => l.key === file && l.checkpoints > 0) ?? bySource.get(sourceOf(file)) ?? undefined;
    if (!lane) {
      const key = `receipts:${sourceOf(file)}`;
      let own = tailOnly.get(key);
      if (!own) {
        own = {
          lane: { key, label: '', checkpoints: 0, failed: 0, runs: [], gaps: [], overlaps: [], covered: null, tail: { count: 0, parts: [] } },
          files: new Set(),
        };
        tailOnly.set(key, own);
        lanes.push(own.lane);
      }
      own.files.add(file);
      own.lane.label = [...own.files].join(', ');
      lane = own.lane;
    }
    laneOfFile.set(file, lane);
    return lane;
  };
  for (const r of receipts) {
    if (!isUncheckpointed(r)) continue;
    const tail = laneFor(r.file).tail;
    tail.count++;
    let part = tail.parts.find((p) => p.type === r.type);
    if (!part) tail.parts.push((part = { type: r.type, count: 0 }));
    part.count++;
    if (r.seq !== undefined) {
      if (part.minSeq === undefined || r.seq < part.minSeq) part.minSeq = r.seq;
      if (part.maxSeq === undefined || r.seq > part.maxSeq) part.maxSeq = r.seq;
    }
  }
}
