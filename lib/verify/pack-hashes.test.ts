// Packing a batch's hashes changes where their bytes live, never the bytes, and
// the batch then crosses a structured clone as one buffer, not thousands.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testdataPath } from '../testutil/testdata';
import { verifiedOutput } from '../testutil/verified-output';
import { packHashes } from './pack-hashes';
import type { RecordOutput } from './record-verifier';

function hashesOf(out: RecordOutput): Uint8Array[] {
  return [
    ...out.receipts.flatMap((r) => [r.leafHash, r.anchorLeafHash]),
    ...out.checkpoints.flatMap((c) => (c.cp.merkleRoot ? [c.cp.merkleRoot] : [])),
    ...out.proofs.flatMap((p) => [p.proof.merkleRoot, ...p.proof.auditPath].filter((h): h is Uint8Array => h !== null)),
  ];
}

describe('packHashes', () => {
  const cases = readdirSync(testdataPath('corpus'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  it.each(cases)('%s: the same output, its hashes in one buffer, one buffer after a structured clone', async (name) => {
    const out = await verifiedOutput(testdataPath(`corpus/${name}`));
    const before = structuredClone(out);
    expect(out.proofs.length).toBeGreaterThan(0);
    expect(new Set(hashesOf(out).map((h) => h.buffer)).size).toBeGreaterThan(100);
    packHashes(out);
    expect(out).toEqual(before);
    const cloned = structuredClone(out);
    expect(cloned).toEqual(before);
    for (const o of [out, cloned]) expect(new Set(hashesOf(o).map((h) => h.buffer)).size).toBe(1);
  });
});
