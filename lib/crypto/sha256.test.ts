import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { createSha256, sha256, sha256Hex, sha256HexOfText, sha256Ready } from './sha256';
import { toHex, utf8 } from '../bytes/hex';
import { readTestdataJson, summarize } from '../../test/support/testdata';

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

  it('the WebAssembly hasher is in use here and gives @noble/hashes digests for any input', async () => {
    expect(await sha256Ready()).toBe(true);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), (bytes) => {
        expect(toHex(sha256(bytes))).toBe(toHex(nobleSha256(bytes)));
        expect(sha256Hex(bytes)).toBe(toHex(nobleSha256(bytes)));
      }),
    );
  });

  it('incremental hashes interleaved with one-shot hashes and with each other stay apart', async () => {
    await sha256Ready();
    const a = utf8('a'.repeat(3000));
    const b = utf8('b'.repeat(2000));
    // More open incremental hashes than spare WebAssembly hashers: the rest use @noble/hashes.
    const open = Array.from({ length: 6 }, () => createSha256());
    for (let i = 0; i < a.length; i += 500) {
      for (const h of open) h.update(a.subarray(i, i + 500));
      expect(sha256Hex(b)).toBe(toHex(nobleSha256(b)));
    }
    for (const h of open) expect(toHex(h.digest())).toBe(toHex(nobleSha256(a)));
    const h = createSha256();
    h.digest();
    expect(() => h.digest()).toThrow(/twice/);
  });
});
