import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RememberedCheckpoint } from './checkpoint-memory';
import { checkpointFileText, importCheckpointMemory, MAX_CHECKPOINT_FILE_BYTES } from './checkpoint-memory-import';

const U64_MAX = (1n << 64n) - 1n;
const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
const hex32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(hex);
const u64 = fc.oneof(fc.constantFrom(0n, 1n, (1n << 53n) + 1n, U64_MAX), fc.bigInt({ min: 0n, max: U64_MAX }));

/** One remembered head: any u64, optional predecessor link, unicode source labels, whole-ms times. */
const remembered = fc
  .record({
    key: hex32,
    checkpointSeq: u64,
    batchStartSeq: u64,
    batchEndSeq: u64,
    treeSize: u64,
    merkleRootHex: hex32,
    sha256: hex32,
    previousSha256: fc.option(hex32, { nil: undefined }),
    issuedAt: u64,
    seenAtMs: fc.integer({ min: 0, max: Date.UTC(9999, 11, 31) }),
    source: fc.string({ unit: 'grapheme', maxLength: 60 }),
  })
  .map(({ previousSha256, ...r }): RememberedCheckpoint => (previousSha256 === undefined ? r : { ...r, previousSha256 }));

/** Many logs (distinct keys) in one memory. */
const memories = fc.uniqueArray(remembered, { selector: (r) => r.key, minLength: 1, maxLength: 40 }).map((list) => new Map(list.map((r) => [r.key, r])));

const entry = (r: RememberedCheckpoint) => JSON.parse(checkpointFileText(new Map([[r.key, r]]))).logs[0] as Record<string, unknown>;
const sample: RememberedCheckpoint = {
  key: 'ab'.repeat(32),
  checkpointSeq: 24n,
  batchStartSeq: 2301n,
  batchEndSeq: 2400n,
  treeSize: 100n,
  merkleRootHex: 'cd'.repeat(32),
  sha256: 'ef'.repeat(32),
  issuedAt: 1767225600n,
  seenAtMs: Date.UTC(2026, 0, 5),
  source: 'prod — ledger ✓ שלום',
};

describe('checkpoint memory export and import', () => {
  it('export → clear → import → export is byte-identical, over many logs', () => {
    fc.assert(
      fc.property(memories, (memory) => {
        const file = checkpointFileText(memory);
        const back = importCheckpointMemory(new Map(), file);
        if (!back.ok) throw new Error(back.error);
        expect(back.added.length).toBe(memory.size);
        expect(back.memory).toEqual(memory);
        expect(checkpointFileText(back.memory)).toBe(file);
        // Importing it again over itself changes nothing.
        const again = importCheckpointMemory(back.memory, file);
        if (!again.ok) throw new Error(again.error);
        expect(again.added).toEqual([]);
        expect(checkpointFileText(again.memory)).toBe(file);
      }),
      { numRuns: 200 },
    );
  });

  it('adds logs it does not know and keeps the ones it does', () => {
    const other = { ...sample, key: '12'.repeat(32), sha256: '34'.repeat(32) };
    const result = importCheckpointMemory(
      new Map([[sample.key, sample]]),
      checkpointFileText(
        new Map([
          [sample.key, sample],
          [other.key, other],
        ]),
      ),
    );
    expect(result).toEqual({
      ok: true,
      memory: new Map([
        [sample.key, sample],
        [other.key, other],
      ]),
      added: [other.key],
      unchanged: [sample.key],
    });
  });

  it('never replaces a remembered checkpoint: a file that disagrees is refused, naming the key', () => {
    const current = new Map([[sample.key, sample]]);
    const forked = { ...sample, sha256: '00'.repeat(32), checkpointSeq: 30n };
    const result = importCheckpointMemory(current, checkpointFileText(new Map([[forked.key, forked]])));
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toBe(
        `it disagrees with what this browser remembers for ${sample.key} (the file has checkpoint 30, this browser remembers checkpoint 24); forget those keys first to take the file's`,
      );
    expect(current.get(sample.key)).toBe(sample);
  });

  it('refuses a hostile or malformed file whole, saying why', () => {
    const current = new Map([[sample.key, sample]]);
    const good = entry({ ...sample, key: '56'.repeat(32) });
    const doc = (logs: unknown[]) => JSON.stringify({ version: 1, logs });
    const cases: [string, string | RegExp][] = [
      ['', 'empty; not a checkpoint file'],
      ['{"version":1,"logs":[', 'the stored checkpoint memory is not JSON'],
      ['[{"key":"ab"}]', 'the stored checkpoint memory is not version 1'],
      [JSON.stringify({ version: 2, logs: [good] }), 'the stored checkpoint memory is not version 1'],
      [doc([good, { ...good, key: '78'.repeat(32), checkpoint_seq: '-1' }]), 'entry 2: a sequence number, tree size or issued_at is not a decimal u64'],
      [doc([{ ...good, checkpoint_seq: '18446744073709551616' }]), 'entry 1: a sequence number, tree size or issued_at is not a decimal u64'],
      [doc([{ ...good, key: 'AB'.repeat(32) }]), 'entry 1: key is not a normalized kernel key'],
      [doc([{ ...good, merkle_root: '<img src=x onerror=alert(1)>' }]), 'entry 1: merkle_root or checkpoint_sha256 is not 64 lowercase hex characters'],
      [doc([{ ...good, source: 'x'.repeat(2001) }]), 'entry 1: source is not a short string'],
      [doc([good, good]), `entry 2: key ${'56'.repeat(32)} is remembered twice`],
      [doc([null, 1, 'x', [], good]), /^entry 1: not an object; entry 2: not an object; entry 3: not an object; and 1 more$/],
      [' '.repeat(MAX_CHECKPOINT_FILE_BYTES + 1), 'larger than 8 MiB; not a checkpoint file'],
    ];
    const failures: string[] = [];
    for (const [i, [text, want]] of cases.entries()) {
      const result = importCheckpointMemory(current, text);
      const got = result.ok ? 'accepted' : result.error;
      if (typeof want === 'string' ? got !== want : !want.test(got)) failures.push(`case ${i + 1}: ${got}`);
    }
    expect(failures, `${failures.length} of ${cases.length}`).toEqual([]);
    expect([...current.keys()]).toEqual([sample.key]);
  });
});
