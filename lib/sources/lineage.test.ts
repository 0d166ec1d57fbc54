// Capability lineage as the page receives it: from a real SQLite store's
// capability_lineage table and from the same store's exported package file,
// both giving the rows the demo producer wrote; hostile rows are skipped.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportDemoPackage, generateDemoStore, type GenerateResult } from '../../tools/demo/generate';
import { LineageCollector, grantNames } from './lineage';
import { openChioStore } from './sqlite-store';

let demo: GenerateResult;
let pkg: string;
beforeAll(async () => {
  const out = mkdtempSync(path.join(tmpdir(), 'lineage-'));
  demo = await generateDemoStore({ count: 700, out });
  pkg = path.join(out, 'package');
  await exportDemoPackage(demo.storePath, pkg);
}, 60_000);

describe('capability lineage', () => {
  it('reads every capability_lineage row of a demo store, with its delegation chain intact', async () => {
    const SQL = await initSqlJs();
    const opened = openChioStore(SQL, new Uint8Array(readFileSync(demo.storePath)));
    if (!opened.ok) throw new Error(opened.message);
    const set = opened.store.capabilityLineage('receipts.sqlite3');
    opened.store.close();
    expect(set.skipped).toBe(0);
    expect(set.entries).toHaveLength(demo.counts.capabilities);
    const ids = new Set(set.entries.map((e) => e.capabilityId));
    expect(ids.size).toBe(demo.counts.capabilities);
    // Every parent is itself a row, depths follow the chain, roots have depth 0.
    const byId = new Map(set.entries.map((e) => [e.capabilityId, e]));
    for (const e of set.entries) {
      if (e.parentCapabilityId === null) expect(e.delegationDepth).toBe(0);
      else expect(e.delegationDepth).toBe(byId.get(e.parentCapabilityId)!.delegationDepth! + 1);
      expect(e.grants.length).toBeGreaterThan(0);
      expect(e.source).toBe('receipts.sqlite3#capability_lineage');
    }
    expect(set.entries.some((e) => e.delegationDepth === 2)).toBe(true);
  });

  it("reads the package's capability-lineage.ndjson to the same rows as the store", async () => {
    const SQL = await initSqlJs();
    const opened = openChioStore(SQL, new Uint8Array(readFileSync(demo.storePath)));
    if (!opened.ok) throw new Error(opened.message);
    const fromStore = opened.store.capabilityLineage('s');
    opened.store.close();
    const c = new LineageCollector();
    const lines = readFileSync(path.join(pkg, 'capability-lineage.ndjson'), 'utf8').split('\n').filter(Boolean);
    for (const line of lines) c.addText(line, 'capability-lineage.ndjson');
    const fromPackage = c.result();
    expect(fromPackage.skipped).toBe(0);
    // The package holds the lineage of the capabilities its receipts use, and their ancestors.
    expect(fromPackage.entries.length).toBe(lines.length);
    const strip = ({ source: _, ...rest }: { source: string }) => rest;
    const storeRows = new Map(fromStore.entries.map((e) => [e.capabilityId, strip(e)]));
    for (const e of fromPackage.entries) expect(strip(e)).toEqual(storeRows.get(e.capabilityId));
  });

  it('skips rows it cannot read and keeps the rest', () => {
    const c = new LineageCollector();
    c.addText(
      '{"capability_id":"cap-a","parent_capability_id":null,"delegation_depth":0,"grants_json":"{\\"grants\\":[{\\"server_id\\":\\"srv\\",\\"tool_name\\":\\"t\\"}]}"}',
      'f',
    );
    c.addText('{not json', 'f');
    c.addText('{"subject_key":"no id"}', 'f');
    c.addText('[{"capability_id":"cap-b","parent_capability_id":"cap-a","issued_at":9007199254740993}, 7]', 'f');
    const r = c.result();
    expect(r.entries.map((e) => e.capabilityId)).toEqual(['cap-a', 'cap-b']);
    expect(r.entries[0]!.grants).toEqual(['srv/t']);
    expect(r.entries[1]!.parentCapabilityId).toBe('cap-a');
    expect(r.entries[1]!.issuedAt).toBeUndefined();
    expect(r.skipped).toBe(3);
    expect(grantNames('[{"tool_name":"x"}]')).toEqual(['*/x']);
    expect(grantNames('"nope"')).toEqual([]);
  });
});
