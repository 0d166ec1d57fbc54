import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { concatBytes, fromHex, toHex } from '../bytes/hex';
import { sha256 } from '../crypto/sha256';
import { HASH_SIZE, isHash, leafHash, nodeHash } from './hash';

interface HasherVector {
  desc: string;
  root?: string;
  leafInput?: string;
  leafHash?: string;
  left?: string;
  right?: string;
  nodeHash?: string;
}
const reference = JSON.parse(readFileSync(new URL('../testdata/merkle/rfc6962-reference-tree.json', import.meta.url), 'utf8')) as {
  hasher: HasherVector[];
  leafInputs: string[];
  nodeHashesByLevel: string[][];
};

function hex(s: string | undefined): Uint8Array {
  const bytes = s === undefined ? null : fromHex(s);
  if (!bytes) throw new Error(`bad hex in vector: ${String(s)}`);
  return bytes;
}

// Straight from the definition, with fresh buffers: the reference for the fast paths.
const slowLeaf = (data: Uint8Array) => sha256(concatBytes(Uint8Array.of(0), data));
const slowNode = (l: Uint8Array, r: Uint8Array) => sha256(concatBytes(Uint8Array.of(1), l, r));

describe('RFC 6962 hasher vectors (rfc6962-reference-tree.json)', () => {
  it('matches every hasher vector', () => {
    const failures: string[] = [];
    for (const v of reference.hasher) {
      let got: string;
      let want: string;
      if (v.nodeHash !== undefined) [got, want] = [toHex(nodeHash(hex(v.left), hex(v.right))), v.nodeHash];
      else if (v.leafHash !== undefined) [got, want] = [toHex(leafHash(hex(v.leafInput))), v.leafHash];
      // The empty-tree root of RFC 6962 is SHA-256(""); lib/merkle never returns it (Chio treats
      // an empty tree as an error, see root.test.ts), so it is checked against sha256 itself.
      else [got, want] = [toHex(sha256(new Uint8Array(0))), v.root ?? ''];
      if (got !== want) failures.push(`${v.desc}: got ${got}, want ${want}`);
    }
    const total = reference.hasher.length;
    expect(failures, `${total - failures.length} of ${total} hasher vectors matched\n${failures.join('\n')}`).toEqual([]);
    expect(total).toBe(4);
  });

  it('hashes the 8 reference leaves to level 0 of the reference tree', () => {
    expect(reference.leafInputs.map((d) => toHex(leafHash(hex(d))))).toEqual(reference.nodeHashesByLevel[0]);
  });
});

describe('leafHash / nodeHash', () => {
  it('equal the definitions for leaf sizes around the scratch-buffer limit', () => {
    for (const size of [0, 1, 31, 32, 33, 4095, 4096, 4097, 10_000]) {
      const data = new Uint8Array(size).map((_, i) => (i * 7 + size) & 0xff);
      expect(toHex(leafHash(data)), `size ${size}`).toBe(toHex(slowLeaf(data)));
    }
  });

  it('return fresh arrays: a later call never changes an earlier result or the inputs', () => {
    const a = leafHash(Uint8Array.of(1));
    const b = leafHash(Uint8Array.of(2));
    const aHex = toHex(a);
    const n1 = nodeHash(a, b);
    const n1Hex = toHex(n1);
    const n2 = nodeHash(b, a);
    expect(n1).not.toBe(n2);
    expect(toHex(n1)).toBe(n1Hex);
    expect(toHex(a)).toBe(aHex);
    expect(toHex(n1)).toBe(toHex(slowNode(a, b)));
    expect(toHex(n2)).toBe(toHex(slowNode(b, a)));
    expect(leafHash(Uint8Array.of(1))).not.toBe(a);
  });

  it('hash children of any length (the fast path is only for 32-byte children)', () => {
    const short = Uint8Array.of(1, 2, 3);
    const full = new Uint8Array(32).fill(9);
    for (const [l, r] of [
      [short, full],
      [full, short],
      [new Uint8Array(0), new Uint8Array(0)],
      [new Uint8Array(33), full],
    ] as const) {
      expect(toHex(nodeHash(l, r))).toBe(toHex(slowNode(l, r)));
    }
  });

  it('accept subarray views and Node Buffers', () => {
    const backing = new Uint8Array(100).map((_, i) => i);
    const l = backing.subarray(3, 35);
    const r = Buffer.from(backing.subarray(50, 82));
    expect(toHex(nodeHash(l, r))).toBe(toHex(slowNode(l.slice(), Uint8Array.from(r))));
    expect(toHex(leafHash(backing.subarray(10, 20)))).toBe(toHex(slowLeaf(backing.slice(10, 20))));
  });

  it('isHash accepts exactly 32-byte Uint8Arrays', () => {
    expect(HASH_SIZE).toBe(32);
    expect(isHash(new Uint8Array(32))).toBe(true);
    expect(isHash(Buffer.alloc(32))).toBe(true);
    for (const x of [new Uint8Array(31), new Uint8Array(33), new Uint16Array(16), new Array(32).fill(0), '0'.repeat(64), null, undefined, 32]) {
      expect(isHash(x)).toBe(false);
    }
  });
});
