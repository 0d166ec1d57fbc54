// Compacting entries as the browser's log worker receives them (structured
// clones from the verify workers) changes how they are held, never a value.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testdataPath } from '../../test/support/testdata';
import { verifiedOutput } from '../../test/support/verified-output';
import { EntryCompactor } from './entry-compactor';

describe('EntryCompactor', () => {
  const cases = readdirSync(testdataPath('corpus'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  it.each(cases)("%s: every field keeps its value; equal check results and the leaf hashes' storage are shared", async (name) => {
    const entries = structuredClone((await verifiedOutput(testdataPath(`corpus/${name}`))).receipts);
    expect(entries.length).toBeGreaterThan(100);
    const before = structuredClone(entries);
    const compactor = new EntryCompactor();
    for (const r of entries) compactor.receipt(r);
    expect(entries).toEqual(before);

    const parse = new Set(entries.map((r) => r.checks.parse));
    expect(parse.size).toBe(1);
    const distinct = new Set(entries.flatMap((r) => Object.values(r.checks)));
    const distinctValues = new Set([...distinct].map((c) => JSON.stringify(c)));
    expect(distinct.size).toBe(distinctValues.size);
    for (const c of distinct) expect(Object.isFrozen(c)).toBe(true);
    const buffers = new Set(entries.map((r) => r.leafHashes.buffer));
    expect(buffers.size).toBe(1);
    for (const r of entries) expect(r.leafHashes.length).toBe(64);
  });
});
