// Packing a batch's hashes changes where their bytes live, never the bytes, and
// the batch then crosses a structured clone as one buffer, not thousands, which
// can be freed as soon as the log worker has taken the batch in.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testdataPath } from '../../test/support/testdata';
import { verifiedOutput } from '../../test/support/verified-output';
import { LogAssembler } from './log-assembler';
import { packHashes } from './pack-hashes';
import { type RecordOutput, emptyOutput } from './record-output';
import { reportToJson } from './report-json';

function hashesOf(out: RecordOutput): Uint8Array[] {
  return [
    ...out.receipts.map((r) => r.leafHashes),
    ...out.checkpoints.flatMap((c) => (c.cp.merkleRoot ? [c.cp.merkleRoot] : [])),
    ...out.proofs.flatMap((p) => [p.proof.merkleRoot, ...p.proof.auditPath].filter((h): h is Uint8Array => h !== null)),
  ];
}

describe('packHashes', () => {
  const cases = readdirSync(testdataPath('corpus'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  it.each(cases)('%s: the same output, its hashes in one buffer, one buffer after a structured clone', async (name) => {
    const out = await verifiedOutput(testdataPath(`corpus/${name}`));
    const before = structuredClone(out);
    expect(out.proofs.length).toBeGreaterThan(0);
    expect(new Set(hashesOf(out).map((h) => h.buffer)).size).toBeGreaterThan(100);
    packHashes(out);
    expect(out.hashes).toBeInstanceOf(ArrayBuffer);
    expect({ ...out, hashes: undefined }).toEqual(before);
    const cloned = structuredClone(out);
    expect({ ...cloned, hashes: undefined }).toEqual(before);
    for (const o of [out, cloned]) expect(new Set(hashesOf(o).map((h) => h.buffer)).size).toBe(1);
  });
});

describe("a batch's packed hashes", () => {
  // The log worker drops each batch's buffer of hashes once taken in; the assembler must keep
  // copies, never views of it. Wiping the buffer after intake stands in for its reuse: any hash
  // still read from it would change the report.
  const cases = readdirSync(testdataPath('corpus'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  it.each(cases)('%s: the assembler keeps no view of them (proofs read before their receipts included)', async (name) => {
    const dir = testdataPath(`corpus/${name}`);
    const reference = new LogAssembler();
    reference.add(await verifiedOutput(dir));
    const expected = reportToJson(reference.finish(false));

    const all = await verifiedOutput(dir);
    // Proofs first: with no receipt to check them against yet, they are kept until finish.
    const proofsFirst: RecordOutput[] = [
      { ...emptyOutput(), proofs: all.proofs },
      { ...all, proofs: [] },
    ];
    const assembler = new LogAssembler();
    for (const out of proofsFirst) {
      packHashes(out);
      assembler.add(out);
      new Uint8Array(out.hashes!).fill(0);
    }
    expect(reportToJson(assembler.finish(false))).toBe(expected);
  });
});
