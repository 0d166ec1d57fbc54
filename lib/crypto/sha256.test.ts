import { describe, expect, it } from 'vitest';
import { createSha256, sha256Hex, sha256HexOfText } from './sha256';
import { toHex, utf8 } from '../bytes/hex';
import { readTestdataJson, summarize } from '../testutil/testdata';

describe('SHA-256', () => {
  it('Chio hashing vectors (gen-a-upstream/tests/bindings/vectors/hashing/v1.json)', () => {
    const { cases } = readTestdataJson<{ cases: { id: string; input_utf8: string; sha256_hex: string }[] }>(
      'chio/gen-a-upstream/tests/bindings/vectors/hashing/v1.json',
    );
    const failures = cases.filter((c) => sha256HexOfText(c.input_utf8) !== c.sha256_hex).map((c) => c.id);
    expect(cases.length).toBe(3);
    expect(failures, summarize('hashing', cases.length, failures)).toEqual([]);
  });

  it('the incremental hasher equals the one-shot hash, however the input is chunked', () => {
    const data = utf8('x'.repeat(1000) + 'é😀'.repeat(333));
    for (const size of [1, 7, 64, 65, 1000, data.length]) {
      const h = createSha256();
      for (let i = 0; i < data.length; i += size) h.update(data.subarray(i, i + size));
      expect(toHex(h.digest())).toBe(sha256Hex(data));
    }
  });
});
