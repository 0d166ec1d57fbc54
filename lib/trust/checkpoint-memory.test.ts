// Checkpoint memory on real logs: the corpus (an independent producer), the
// derived checkpoints, and the demo producer. The forks are real: the demo's
// kernel key derives from its seed only, while its content depends on the
// count (policy and generation changes sit at fixed fractions of it), so the
// default seed with 2,437 and with 2,500 receipts gives two histories signed
// by the same key that agree on checkpoints 1–7 and differ from 8 on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadPaths } from '../../bin/cli/main';
import { DEMO_SEED_DEFAULT, exportDemoPackage, generateDemoStore } from '../../tools/demo/generate';
import { demoKernelKey } from '../../tools/demo/sign';
import { canonicalBytes } from '../json/canonicalize';
import { parseJson } from '../json/parse';
import { testdataPath } from '../../test/support/testdata';
import { verifiedCheckpoints } from '../verify/verified-checkpoints';
import type { VerifiedCheckpoint } from './verified-checkpoint';
import { type CheckpointMemory, type ContinuityOutcome, compareWithMemory } from './checkpoint-memory';
import { checkpointMemoryToJson, parseCheckpointMemory } from './checkpoint-memory-json';
import { TrustStore } from './trust-store';

const DEMO_KEY = '4e9f3e296bcc79b5ecdc26b6db814637fb1184d5e0162afdac7a9a3e7fb60f17';
const CORPUS_KEY = 'd04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737';
const DAY1 = { atMs: Date.UTC(2026, 0, 5, 9, 30), source: 'day 1' };
const DAY2 = { atMs: Date.UTC(2026, 0, 6, 9, 30), source: 'day 2' };

let dir: string;
const demo: Record<'a' | 'b', { store: string; checkpoints: string }> = {} as never;

const loads = new Map<string, VerifiedCheckpoint[]>();

/** Verifies `paths` as one log, as the command line does, and keeps its verified checkpoints (once per set of paths). */
async function load(paths: string[], trust?: TrustStore): Promise<VerifiedCheckpoint[]> {
  const id = paths.join('\n');
  if (!trust && loads.has(id)) return loads.get(id)!;
  const verifier = await loadPaths(paths, trust ?? TrustStore.empty());
  await verifier.finish();
  const got = verifiedCheckpoints(verifier.checkpointEntries);
  if (!trust) loads.set(id, got);
  return got;
}

/** The lines of a package's checkpoints.ndjson whose seq is in [from, to], unchanged, as a file of their own. */
function slice(which: 'a' | 'b', from: number, to: number): string {
  const lines = readFileSync(demo[which].checkpoints, 'utf8')
    .split('\n')
    .filter((l) => {
      const seq = l ? (JSON.parse(l) as { body: { checkpoint_seq: number } }).body.checkpoint_seq : 0;
      return seq >= from && seq <= to;
    });
  const file = path.join(dir, `${which}-${from}-${to}.ndjson`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** Remembers what `paths` hold, as a first load does. */
async function memoryOf(paths: string[]): Promise<CheckpointMemory> {
  return compareWithMemory(new Map(), await load(paths), DAY1).memory;
}

function only(outcomes: ContinuityOutcome[]): ContinuityOutcome {
  expect(outcomes).toHaveLength(1);
  return outcomes[0]!;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ra-fork-'));
  for (const [which, count] of [
    ['a', 2437],
    ['b', 2500],
  ] as const) {
    const out = path.join(dir, which);
    const { storePath } = await generateDemoStore({ count, seed: DEMO_SEED_DEFAULT, out });
    await exportDemoPackage(storePath, path.join(out, 'package'));
    demo[which] = { store: storePath, checkpoints: path.join(out, 'package', 'checkpoints.ndjson') };
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('verifiedCheckpoints', () => {
  it("hashes each checkpoint as the chain does: the independent producer's link and the derived publications agree", async () => {
    // corpus/good: checkpoint 2's previous_checkpoint_sha256 was written by a producer that shares no code with us.
    const corpus = await load([testdataPath('corpus/good/checkpoints.ndjson')]);
    expect(corpus.map((c) => [c.key, c.checkpointSeq])).toEqual([
      [CORPUS_KEY, 1n],
      [CORPUS_KEY, 2n],
    ]);
    expect(corpus[1]!.previousSha256).toBe(corpus[0]!.sha256);
    // derived-checkpoints: the publication records name each checkpoint_sha256 and root.
    const pkg = 'chio/derived-checkpoints/checkpoint-batch-v1';
    const derived = await load([testdataPath(`${pkg}/checkpoints.ndjson`)]);
    const published = readFileSync(testdataPath(`${pkg}/checkpoint-publications.ndjson`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { checkpoint_seq: number; checkpoint_sha256: string; merkle_root: string; kernel_key: string });
    expect(derived.map((c) => [c.key, c.checkpointSeq, c.sha256, '0x' + c.merkleRootHex])).toEqual(
      published.map((p) => [p.kernel_key, BigInt(p.checkpoint_seq), p.checkpoint_sha256, p.merkle_root]),
    );
    expect(derived[1]!.previousSha256).toBe(derived[0]!.sha256);
  });

  it('leaves out a checkpoint that failed (corpus: checkpoint 2 with a flipped signature bit)', async () => {
    const got = await load([testdataPath('corpus/bad-checkpoint-signature')]);
    expect(got.map((c) => c.checkpointSeq)).toEqual([1n]);
  });

  it('leaves out checkpoints whose signer is not the pinned key', async () => {
    const other = TrustStore.create([{ key: CORPUS_KEY }]);
    if (!other.ok) throw new Error(other.error);
    expect(await load([demo.a.checkpoints], other.store)).toEqual([]);
  });

  it('reads a whole demo store: 24 checkpoints of the demo key, chained', async () => {
    const got = await load([demo.a.store]);
    expect(got.map((c) => c.checkpointSeq)).toEqual(Array.from({ length: 24 }, (_, i) => BigInt(i + 1)));
    expect(new Set(got.map((c) => c.key))).toEqual(new Set([DEMO_KEY]));
    for (let i = 1; i < got.length; i++) expect(got[i]!.previousSha256).toBe(got[i - 1]!.sha256);
  });
});

describe('compareWithMemory', () => {
  it('remembers a new log, then the same log continues and the memory keeps when it was first seen', async () => {
    const loaded = await load([demo.a.store]);
    const first = compareWithMemory(new Map(), loaded, DAY1);
    expect(only(first.outcomes)).toMatchObject({ kind: 'new', key: DEMO_KEY, head: { checkpointSeq: 24n } });
    expect(first.memory.get(DEMO_KEY)).toMatchObject({ checkpointSeq: 24n, sha256: loaded[23]!.sha256, seenAtMs: DAY1.atMs, source: 'day 1' });
    const again = compareWithMemory(first.memory, loaded, DAY2);
    expect(only(again.outcomes)).toMatchObject({ kind: 'continues', via: 'same_checkpoint', head: { checkpointSeq: 24n } });
    expect(again.memory).toEqual(first.memory);
  });

  it('a store of the same key with another history is a fork at the remembered seq, and the memory stays', async () => {
    const memory = await memoryOf([demo.a.store]);
    const forked = await load([demo.b.store]);
    const { outcomes, memory: after } = compareWithMemory(memory, forked, DAY2);
    expect(only(outcomes)).toMatchObject({
      kind: 'fork',
      how: 'same_seq',
      seq: 24n,
      known: { sha256: memory.get(DEMO_KEY)!.sha256, source: 'day 1', seenAtMs: DAY1.atMs },
      found: { sha256: forked[23]!.sha256, source: 'day 2: receipts.sqlite3#kernel_checkpoints' },
    });
    expect(forked[23]!.sha256).not.toBe(memory.get(DEMO_KEY)!.sha256);
    expect(after).toEqual(memory);
    // The original log, loaded again, still continues what was remembered.
    expect(only(compareWithMemory(after, await load([demo.a.store]), DAY2).outcomes).kind).toBe('continues');
  });

  it('a later part of another history links to a different predecessor: a fork at the remembered seq', async () => {
    const memory = await memoryOf([slice('a', 1, 20)]);
    const { outcomes, memory: after } = compareWithMemory(memory, await load([slice('b', 21, 25)]), DAY2);
    const o = only(outcomes);
    expect(o).toMatchObject({ kind: 'fork', how: 'previous_link', seq: 20n, known: { sha256: memory.get(DEMO_KEY)!.sha256 } });
    expect(o.kind === 'fork' && o.found.sha256).not.toBe(memory.get(DEMO_KEY)!.sha256);
    expect(after).toEqual(memory);
  });

  it('another history ending just before the remembered checkpoint is not the predecessor it named: a fork', async () => {
    const memory = await memoryOf([demo.a.checkpoints]);
    const o = only(compareWithMemory(memory, await load([slice('b', 1, 23)]), DAY2).outcomes);
    expect(o).toMatchObject({ kind: 'fork', how: 'predecessor', seq: 23n, known: { sha256: memory.get(DEMO_KEY)!.previousSha256 } });
  });

  // Part 2 §12: the server that left out every checkpoint (the tampered demo store of issue 20).
  it('a load signed by a remembered key that brings no checkpoint of it is a rollback; another key is not', async () => {
    const memory = await memoryOf([demo.a.checkpoints]);
    const { outcomes, memory: after } = compareWithMemory(memory, [], DAY2, [DEMO_KEY]);
    expect(only(outcomes)).toMatchObject({ kind: 'rollback', key: DEMO_KEY, head: null, remembered: { checkpointSeq: memory.get(DEMO_KEY)!.checkpointSeq } });
    expect(after).toEqual(memory);
    expect(compareWithMemory(memory, [], DAY2, [CORPUS_KEY]).outcomes).toEqual([]);
  });

  it('an older part of the same history is a rollback: with the predecessor checked, or unchecked', async () => {
    const memory = await memoryOf([demo.a.checkpoints]);
    expect(only(compareWithMemory(memory, await load([slice('a', 1, 23)]), DAY2).outcomes)).toMatchObject({
      kind: 'rollback',
      predecessor: 'matches',
      head: { checkpointSeq: 23n },
    });
    const { outcomes, memory: after } = compareWithMemory(memory, await load([slice('a', 1, 10)]), DAY2);
    expect(only(outcomes)).toMatchObject({ kind: 'rollback', predecessor: 'unchecked', head: { checkpointSeq: 10n } });
    expect(after).toEqual(memory);
  });

  // The demo's checkpoints 13–24 are v2: a load of only 11–24 continues because their chain roots
  // recompute from the chain frontier remembered with checkpoint 10 (contract part 2 §12).
  it("a newer load continues through the same checkpoint or its successor's link, and the memory advances", async () => {
    const memory = await memoryOf([slice('a', 1, 10)]);
    for (const [file, via] of [
      [demo.a.checkpoints, 'same_checkpoint'],
      [slice('a', 11, 24), 'chain'],
    ] as const) {
      const { outcomes, memory: after } = compareWithMemory(memory, await load([file]), DAY2);
      expect(only(outcomes), via).toMatchObject({ kind: 'continues', via, remembered: { checkpointSeq: 10n }, head: { checkpointSeq: 24n } });
      expect(after.get(DEMO_KEY), via).toMatchObject({ checkpointSeq: 24n, seenAtMs: DAY2.atMs, source: 'day 2' });
    }
  });

  it('a v1 load that starts after the remembered checkpoint without a link to it is unconnected', async () => {
    const memory = await memoryOf([slice('a', 1, 5)]);
    const { outcomes, memory: after } = compareWithMemory(memory, await load([slice('a', 8, 12)]), DAY2);
    expect(only(outcomes)).toMatchObject({ kind: 'unconnected', head: { checkpointSeq: 12n } });
    expect(after).toEqual(memory);
  });

  it('a later v2 checkpoint that nothing ties to the remembered chain is a fork warning (§12), and the memory stays', async () => {
    const memory = await memoryOf([slice('a', 1, 5)]);
    const { outcomes, memory: after } = compareWithMemory(memory, await load([slice('a', 10, 24)]), DAY2);
    expect(only(outcomes)).toMatchObject({ kind: 'fork', how: 'unproven_extension', seq: 13n });
    expect(after).toEqual(memory);
  });

  it('a later v2 checkpoint whose chain_root does not recompute from the remembered frontier is a fork (chain rewritten)', async () => {
    const memory = await memoryOf([slice('a', 1, 23)]);
    expect(memory.get(DEMO_KEY)!.chainFrontier?.length).toBeGreaterThan(0);
    // The kernel key signs checkpoint 24 again with another chain_root; its digest link to 23 still holds.
    const line = readFileSync(slice('a', 24, 24), 'utf8').trim();
    const cp = JSON.parse(line) as { body: Record<string, unknown>; signature: string };
    cp.body.chain_root = '0x' + '77'.repeat(32);
    const body = parseJson(JSON.stringify(cp.body));
    if (!body.ok) throw new Error('parse');
    cp.signature = demoKernelKey().sign(canonicalBytes(body.value));
    const file = path.join(dir, 'a-24-rewritten.ndjson');
    writeFileSync(file, JSON.stringify(cp) + '\n');
    const { outcomes, memory: after } = compareWithMemory(memory, await load([file]), DAY2);
    expect(only(outcomes)).toMatchObject({ kind: 'fork', how: 'chain_mismatch', seq: 24n });
    expect(after).toEqual(memory);
    // The honest checkpoint 24 continues the same memory.
    expect(only(compareWithMemory(memory, await load([slice('a', 24, 24)]), DAY2).outcomes)).toMatchObject({ kind: 'continues', via: 'chain' });
  });

  it('one load holding both histories is a fork by itself, at the first seq where they differ', async () => {
    const memory = await memoryOf([slice('a', 1, 3)]);
    const { outcomes, memory: after } = compareWithMemory(memory, await load([demo.a.store, demo.b.store]), DAY2);
    expect(only(outcomes)).toMatchObject({ kind: 'fork', how: 'within_load', seq: 8n });
    expect(after).toEqual(memory);
  });

  it('another key is new and leaves the remembered logs alone', async () => {
    const memory = await memoryOf([demo.a.checkpoints]);
    const { outcomes, memory: after } = compareWithMemory(memory, await load([testdataPath('corpus/good')]), DAY2);
    expect(only(outcomes)).toMatchObject({ kind: 'new', key: CORPUS_KEY, head: { checkpointSeq: 2n } });
    expect(after.get(DEMO_KEY)).toEqual(memory.get(DEMO_KEY));
    expect([...after.keys()].sort()).toEqual([DEMO_KEY, CORPUS_KEY].sort());
  });
});

describe('checkpoint memory storage', () => {
  it('round-trips exactly', async () => {
    const memory = compareWithMemory(await memoryOf([demo.a.checkpoints]), await load([testdataPath('corpus/good')]), DAY2).memory;
    const parsed = parseCheckpointMemory(checkpointMemoryToJson(memory));
    expect(parsed.issues).toEqual([]);
    expect(parsed.memory).toEqual(memory);
  });

  it('drops and names entries it cannot read, keeping the rest', async () => {
    const good = JSON.parse(checkpointMemoryToJson(await memoryOf([demo.a.checkpoints]))) as { version: number; logs: Record<string, unknown>[] };
    const entry = good.logs[0]!;
    const bad = [
      { ...entry, key: entry.key + '00' },
      { ...entry, key: CORPUS_KEY, checkpoint_seq: 24 },
      { ...entry, key: CORPUS_KEY, checkpoint_seq: '024' },
      { ...entry, key: CORPUS_KEY, checkpoint_seq: '18446744073709551616' },
      { ...entry, key: CORPUS_KEY, checkpoint_sha256: '0x' + entry.checkpoint_sha256 },
      { ...entry, key: CORPUS_KEY, seen_at: 'yesterday' },
      entry,
    ];
    const parsed = parseCheckpointMemory(JSON.stringify({ version: 1, logs: [entry, ...bad] }));
    expect(parsed.issues.map((i) => i.split(':')[0])).toEqual(['entry 2', 'entry 3', 'entry 4', 'entry 5', 'entry 6', 'entry 7', 'entry 8']);
    expect([...parsed.memory.keys()]).toEqual([DEMO_KEY]);
    expect(parseCheckpointMemory('{"version":2,"logs":[]}').issues).toHaveLength(1);
    expect(parseCheckpointMemory('not json').issues).toHaveLength(1);
    expect(parseCheckpointMemory(null)).toEqual({ memory: new Map(), issues: [] });
  });
});
