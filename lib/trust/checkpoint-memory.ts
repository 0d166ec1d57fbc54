// Checkpoint memory across loads: for each kernel key (a log's identity) the
// browser remembers the highest checkpoint it verified, and a newer load of
// that log must continue it (chio-format.md §9.1: the same seq with the same
// `checkpoint_sha256`, or a successor whose `previous_checkpoint_sha256`
// names it). A kernel that signed two different checkpoints for one place
// signed two histories: a fork. Pure: the caller keeps the memory (the page,
// in localStorage) and passes the time and the source's label.
//
// Policy: the memory advances only on `new` and `continues`, never on a fork,
// an older or an unconnected load, so an attacker cannot replace what was seen
// by serving something else once.
import { fromHex, toHex } from '../bytes/hex';
import { appendToFrontier, frontierRoot } from '../merkle';
import type { VerifiedCheckpoint } from './verified-checkpoint';

/** The remembered head of one key's log. */
export interface RememberedCheckpoint extends Omit<VerifiedCheckpoint, 'file'> {
  /** When this browser first saw this checkpoint (ms since the epoch), and the source's label. */
  seenAtMs: number;
  source: string;
}

/** Remembered heads by key. */
export type CheckpointMemory = ReadonlyMap<string, RememberedCheckpoint>;

/** The load being compared: when it finished, and a label for its source (shown later as "from …"). */
export interface LoadContext {
  atMs: number;
  source: string;
}

/** One side of a fork: a checkpoint digest at the fork's seq, and where it comes from. */
export interface ForkSide {
  sha256: string;
  /** The source's label (memory) or the file in this load. */
  source: string;
  /** Set for the remembered side: when this browser saw it. */
  seenAtMs?: number;
}

export type ForkHow =
  /** The load holds a different checkpoint at the remembered seq. */
  | 'same_seq'
  /** The load's checkpoint after the remembered one names a different predecessor. */
  | 'previous_link'
  /** The load's checkpoint before the remembered one is not the one it named as predecessor. */
  | 'predecessor'
  /** The load itself holds two different verified checkpoints at one seq. */
  | 'within_load'
  /** A later v2 checkpoint's chain_root, recomputed from the remembered chain, differs: a rewritten history (§12). */
  | 'chain_mismatch'
  /** A later v2 checkpoint whose chain nothing in this load ties to the remembered checkpoint (§12). */
  | 'unproven_extension';

export type ContinuityOutcome =
  | { kind: 'new'; key: string; head: VerifiedCheckpoint }
  | { kind: 'continues'; key: string; remembered: RememberedCheckpoint; head: VerifiedCheckpoint; via: 'same_checkpoint' | 'previous_link' | 'chain' }
  | { kind: 'fork'; key: string; remembered: RememberedCheckpoint | null; how: ForkHow; seq: bigint; known: ForkSide; found: ForkSide }
  /**
   * Contract part 2 §12: the load brings receipts or checkpoints signed by a remembered key, but no
   * verified checkpoint at the remembered seq or later (`head`: its highest, or null for none). An
   * earlier state of the log, or checkpoints withheld: blocking, as a fork is.
   */
  | { kind: 'rollback'; key: string; remembered: RememberedCheckpoint; head: VerifiedCheckpoint | null; predecessor: 'matches' | 'unchecked' }
  | { kind: 'unconnected'; key: string; remembered: RememberedCheckpoint; head: VerifiedCheckpoint; reason: string };

export interface Comparison {
  /** One per key that has a verified checkpoint in the load, in key order. */
  outcomes: ContinuityOutcome[];
  /** The memory after this load: advanced for `new` and `continues`, otherwise unchanged. */
  memory: Map<string, RememberedCheckpoint>;
}

/**
 * Compares a load's verified checkpoints with the memory, key by key. `signers`: every key that
 * signed a receipt or a checkpoint of the load (verified or not), normalized as the memory's keys
 * are; a remembered one among them whose load has no verified checkpoint is a rollback (§12).
 */
export function compareWithMemory(
  memory: CheckpointMemory,
  loaded: readonly VerifiedCheckpoint[],
  ctx: LoadContext,
  signers: Iterable<string> = [],
): Comparison {
  const next = new Map(memory);
  const outcomes: ContinuityOutcome[] = [];
  const groups = groupByKey(loaded);
  for (const key of signers) {
    const r = memory.get(key);
    if (r && !groups.has(key)) groups.set(key, []);
  }
  for (const [key, list] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const r = memory.get(key) ?? null;
    const outcome =
      list.length === 0 ? { kind: 'rollback' as const, key, remembered: r!, head: null, predecessor: 'unchecked' as const } : compareKey(r, key, list, ctx);
    outcomes.push(outcome);
    if (outcome.kind === 'new') next.set(key, remember(outcome.head, ctx));
    else if (outcome.kind === 'continues' && outcome.head.checkpointSeq > outcome.remembered.checkpointSeq) next.set(key, remember(outcome.head, ctx));
  }
  return { outcomes, memory: next };
}

function remember(c: VerifiedCheckpoint, ctx: LoadContext): RememberedCheckpoint {
  const { file: _file, ...rest } = c;
  return { ...rest, seenAtMs: ctx.atMs, source: ctx.source };
}

function groupByKey(loaded: readonly VerifiedCheckpoint[]): Map<string, VerifiedCheckpoint[]> {
  const byKey = new Map<string, VerifiedCheckpoint[]>();
  for (const c of loaded) {
    const list = byKey.get(c.key) ?? [];
    list.push(c);
    byKey.set(c.key, list);
  }
  for (const list of byKey.values()) list.sort((a, b) => (a.checkpointSeq < b.checkpointSeq ? -1 : a.checkpointSeq > b.checkpointSeq ? 1 : 0));
  return new Map([...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function compareKey(r: RememberedCheckpoint | null, key: string, list: VerifiedCheckpoint[], ctx: LoadContext): ContinuityOutcome {
  const outcome = compareKeyV1(r, key, list, ctx);
  return r ? requireChainExtension(r, key, list, ctx, outcome) : outcome;
}

/**
 * Contract part 2 §12, third point: a v2 checkpoint later than the remembered one must prove that
 * its chain extends the remembered chain, either because this load holds the whole prefix (its
 * chain check passed) with the remembered checkpoint's chain leaf at its place, or because the
 * chain roots of the checkpoints after it recompute from the chain frontier remembered with it.
 * Otherwise the load is a fork for this browser, whatever the digest links say: a digest binds the
 * previous body, not the earlier chain leaves a later chain_root commits to.
 */
function requireChainExtension(
  r: RememberedCheckpoint,
  key: string,
  list: VerifiedCheckpoint[],
  ctx: LoadContext,
  outcome: ContinuityOutcome,
): ContinuityOutcome {
  if (outcome.kind !== 'continues' && outcome.kind !== 'unconnected') return outcome;
  const highest = list[list.length - 1]!;
  const laterV2 = list.filter((c) => c.checkpointSeq > r.checkpointSeq && c.chainRootHex !== undefined);
  if (laterV2.length === 0) return outcome;
  const bySeq = new Map(list.map((c) => [c.checkpointSeq, c]));
  const fork = (how: ForkHow, c: VerifiedCheckpoint, found: string): ContinuityOutcome => ({
    kind: 'fork',
    key,
    remembered: r,
    how,
    seq: c.checkpointSeq,
    known: { sha256: r.sha256, source: r.source, seenAtMs: r.seenAtMs },
    found: { sha256: found, source: inLoad(ctx, c) },
  });
  const rememberedLeaf = r.chainLeafHex;
  // The whole prefix is in this load: the remembered checkpoint's leaf must be at its place.
  const atSeq = bySeq.get(r.checkpointSeq);
  if (highest.chain === 'pass' && atSeq && (atSeq.sha256 === r.sha256 || (rememberedLeaf !== undefined && atSeq.chainLeafHex === rememberedLeaf))) {
    return outcome.kind === 'continues' ? outcome : { kind: 'continues', key, remembered: r, head: highest, via: 'chain' };
  }
  // Recompute each later chain root from the remembered frontier, along the digest links.
  if (r.chainFrontier) {
    let frontier = r.chainFrontier.map((f) => ({ size: f.size, hash: fromHex(f.hashHex, 32)! }));
    let prev: { sha256: string; checkpointSeq: bigint } = r;
    let head: VerifiedCheckpoint | null = null;
    for (;;) {
      const c = bySeq.get(prev.checkpointSeq + 1n);
      if (!c || c.previousSha256 !== prev.sha256 || c.chainLeafHex === undefined) break;
      frontier = appendToFrontier(frontier, fromHex(c.chainLeafHex, 32)!);
      if (c.chainRootHex !== undefined && toHex(frontierRoot(frontier)!) !== c.chainRootHex) return fork('chain_mismatch', c, c.sha256);
      // Carried with the head, so the memory that advances to it can check the next load the same way.
      head = { ...c, chainFrontier: frontier.map((x) => ({ size: x.size, hashHex: toHex(x.hash) })) };
      prev = c;
    }
    if (head && laterV2.every((c) => c.checkpointSeq <= head!.checkpointSeq)) {
      const ahead = outcome.kind === 'continues' && outcome.head.checkpointSeq > head.checkpointSeq;
      return ahead ? outcome : { kind: 'continues', key, remembered: r, head, via: 'chain' };
    }
  }
  const first = laterV2[0]!;
  return fork('unproven_extension', first, first.sha256);
}

function compareKeyV1(r: RememberedCheckpoint | null, key: string, list: VerifiedCheckpoint[], ctx: LoadContext): ContinuityOutcome {
  const bySeq = new Map<bigint, VerifiedCheckpoint>();
  for (const c of list) {
    const other = bySeq.get(c.checkpointSeq);
    if (other && other.sha256 !== c.sha256) {
      const side = (x: VerifiedCheckpoint): ForkSide => ({ sha256: x.sha256, source: inLoad(ctx, x) });
      return { kind: 'fork', key, remembered: r, how: 'within_load', seq: c.checkpointSeq, known: side(other), found: side(c) };
    }
    bySeq.set(c.checkpointSeq, c);
  }
  const highest = list[list.length - 1]!;
  if (!r) return { kind: 'new', key, head: highest };

  const known = (sha256: string): ForkSide => ({ sha256, source: r.source, seenAtMs: r.seenAtMs });
  const found = (sha256: string, c: VerifiedCheckpoint): ForkSide => ({ sha256, source: inLoad(ctx, c) });
  const fork = (how: ForkHow, seq: bigint, knownSha: string, foundSha: string, c: VerifiedCheckpoint): ContinuityOutcome => ({
    kind: 'fork',
    key,
    remembered: r,
    how,
    seq,
    known: known(knownSha),
    found: found(foundSha, c),
  });

  const same = bySeq.get(r.checkpointSeq);
  if (same) {
    if (same.sha256 !== r.sha256) return fork('same_seq', r.checkpointSeq, r.sha256, same.sha256, same);
    return { kind: 'continues', key, remembered: r, head: walk(same, bySeq), via: 'same_checkpoint' };
  }
  const after = bySeq.get(r.checkpointSeq + 1n);
  if (after?.previousSha256 !== undefined) {
    if (after.previousSha256 !== r.sha256) return fork('previous_link', r.checkpointSeq, r.sha256, after.previousSha256, after);
    if (after.batchStartSeq === r.batchEndSeq + 1n) return { kind: 'continues', key, remembered: r, head: walk(after, bySeq), via: 'previous_link' };
  }
  const before = bySeq.get(r.checkpointSeq - 1n);
  if (before && r.previousSha256 !== undefined && before.sha256 !== r.previousSha256) {
    return fork('predecessor', r.checkpointSeq - 1n, r.previousSha256, before.sha256, before);
  }
  if (highest.checkpointSeq < r.checkpointSeq) {
    return { kind: 'rollback', key, remembered: r, head: highest, predecessor: before && r.previousSha256 !== undefined ? 'matches' : 'unchecked' };
  }
  return { kind: 'unconnected', key, remembered: r, head: highest, reason: unconnectedReason(r, after, list[0]!) };
}

/** Where in this load a checkpoint was read: the source's label and the file, once when one names the other. */
function inLoad(ctx: LoadContext, c: VerifiedCheckpoint): string {
  return c.file.startsWith(ctx.source) ? c.file : `${ctx.source}: ${c.file}`;
}

/** From a checkpoint tied to the memory, up through successors that follow it (§9.1 predecessor rules). */
function walk(from: VerifiedCheckpoint, bySeq: Map<bigint, VerifiedCheckpoint>): VerifiedCheckpoint {
  let cur = from;
  for (;;) {
    const n = bySeq.get(cur.checkpointSeq + 1n);
    if (!n || n.batchStartSeq !== cur.batchEndSeq + 1n || (n.previousSha256 !== undefined && n.previousSha256 !== cur.sha256)) return cur;
    cur = n;
  }
}

function unconnectedReason(r: RememberedCheckpoint, after: VerifiedCheckpoint | undefined, lowest: VerifiedCheckpoint): string {
  const seq = r.checkpointSeq;
  if (after && after.previousSha256 === undefined) return `checkpoint ${seq + 1n} names no previous_checkpoint_sha256, so nothing ties it to checkpoint ${seq}`;
  if (after)
    return `checkpoint ${seq + 1n} names checkpoint ${seq} as its predecessor, but its batch starts at ${after.batchStartSeq}, not at ${r.batchEndSeq + 1n}`;
  if (lowest.checkpointSeq > seq) return `this load starts at checkpoint ${lowest.checkpointSeq}; checkpoints ${seq} and ${seq + 1n} are not in it`;
  return `this load holds checkpoints before and after ${seq}, but neither ${seq} nor ${seq + 1n}`;
}
