// The one source loader's own policies, on real inputs (a corpus package, the
// showcase SQLite stores, a file that is not a store): what a keeper is given and
// when a store is closed, lineage collected from packages and stores, a store
// refused as a problem or as RefusedSource, a failing source isolated, a URL
// where the platform reads none.
import { readFileSync } from 'node:fs';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { nodeDir, nodeFile } from '../../bin/cli/node-source';
import { testdataPath } from '../../test/support/testdata';
import { LogVerifier } from '../verify/log-verifier';
import { LineageCollector } from './lineage';
import { type LogInput, RefusedSource, type SourceKeeper, type SourcePlatform, loadSources } from './load-sources';
import type { ChioStoreReader } from './sqlite-rows';

const platform: SourcePlatform = { sqliteLimit: 'page', sqlJs: () => initSqlJs() };
const GOOD = testdataPath('corpus/good');
const MINIMAL = testdataPath('chio/realworld-2026-09/minimal-evidence');
const PROVIDER = testdataPath('chio/showcase/sqlite/provider-receipts.sqlite3');

function store(name: string, bytes: Uint8Array, refuse: 'problem' | 'throw', size = bytes.length): LogInput & { reads: number } {
  const input = {
    kind: 'store' as const,
    name,
    space: name,
    file: name,
    label: name,
    refuse,
    reads: 0,
    read: async () => ({
      size,
      db: async () => {
        input.reads++;
        return bytes;
      },
    }),
  };
  return input;
}

function keeper() {
  const kept: string[] = [];
  const stores: ChioStoreReader[] = [];
  const keep: SourceKeeper = {
    addPackage: (dir, source) => kept.push(`package ${dir.path} of ${source}`),
    addFile: (file, name, source) => kept.push(`file ${file.name} as ${name} of ${source}`),
    addStore: (name, s, source) => {
      kept.push(`store ${name} of ${source}`);
      stores.push(s);
    },
  };
  return { keep, kept, stores };
}

describe('loadSources', () => {
  it('a package, a file and a store: each named as its own source, kept by name, lineage from the package and the store', async () => {
    const inputs: LogInput[] = [
      { kind: 'package', name: 'minimal', space: 'p', dir: () => nodeDir(MINIMAL, 'minimal') },
      {
        kind: 'files',
        name: 'loose',
        space: 'files',
        files: [{ display: 'loose/receipts.ndjson', open: () => nodeFile(`${GOOD}/receipts.ndjson`, 'receipts.ndjson') }],
      },
      store('provider.sqlite3', new Uint8Array(readFileSync(PROVIDER)), 'problem'),
    ];
    const v = new LogVerifier();
    const { keep, kept, stores } = keeper();
    const lineage = new LineageCollector();
    await loadSources(inputs, v, { platform, keep, lineage });
    expect(kept).toEqual([
      'package minimal of minimal',
      'file receipts.ndjson as loose/receipts.ndjson of loose',
      'store provider.sqlite3 of provider.sqlite3',
    ]);
    // Kept stores stay open for the receipt page's later reads.
    expect(stores[0]!.counts().rows.chio_tool_receipts).toBeGreaterThan(0);
    const report = await v.finish();
    const files = new Set(report.receipts.map((r) => r.file));
    expect(files).toEqual(new Set(['receipts.ndjson', 'loose/receipts.ndjson', 'provider.sqlite3#chio_tool_receipts']));
    const lineageSources = new Set(lineage.result().entries.map((e) => e.source.split('#')[0]));
    expect(lineageSources).toEqual(new Set(['capability-lineage.ndjson', 'provider.sqlite3']));
  });

  it('a store is closed once read unless it is kept', async () => {
    // sql.js whose databases count their closes: the loader's store reader closes its database.
    let closes = 0;
    const counting: SourcePlatform = {
      sqliteLimit: 'cli',
      async sqlJs() {
        const SQL = await initSqlJs();
        class Counted extends SQL.Database {
          override close() {
            closes++;
            super.close();
          }
        }
        return { ...SQL, Database: Counted };
      },
    };
    const bytes = new Uint8Array(readFileSync(PROVIDER));
    await loadSources([store('provider.sqlite3', bytes, 'throw')], new LogVerifier(), { platform: counting });
    expect(closes).toBe(1);
    const { keep, stores } = keeper();
    await loadSources([store('provider.sqlite3', bytes, 'throw')], new LogVerifier(), { platform: counting, keep });
    expect(closes).toBe(1);
    stores[0]!.close();
    expect(closes).toBe(2);
  });

  it('a file that is not a store: a parse_error naming it, or RefusedSource; a store too large is never read', async () => {
    const junk = new TextEncoder().encode('{"not": "a store"}\n');
    const v = new LogVerifier();
    await loadSources([store('notes.sqlite3', junk, 'problem')], v, { platform });
    const report = await v.finish();
    expect(report.problems.map((p) => [p.code, p.file, p.message.startsWith('notes.sqlite3: ')])).toEqual([['parse_error', 'notes.sqlite3', true]]);

    const refused = await loadSources([store('notes.sqlite3', junk, 'throw')], new LogVerifier(), { platform }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RefusedSource);
    expect((refused as RefusedSource).reason).toBe('not-a-store');
    expect((refused as Error).name).toBe('Error');

    const huge = store('huge.sqlite3', junk, 'throw', 2 ** 30 + 1);
    const tooLarge = await loadSources([huge], new LogVerifier(), { platform }).catch((e: unknown) => e);
    expect((tooLarge as RefusedSource).reason).toBe('too-large');
    expect((tooLarge as Error).message).toMatch(/^huge\.sqlite3 is 1\.0 GiB: .* the page reads stores up to 1 GiB/);
    expect(huge.reads).toBe(0);
  });

  it('a source that fails goes to isolate by its name and the next still loads; a URL needs the platform', async () => {
    const failing: LogInput = {
      kind: 'files',
      name: 'gone.ndjson',
      space: 'files',
      files: [
        {
          display: 'gone.ndjson',
          open: () => ({
            name: 'gone.ndjson',
            // biome-ignore lint/correctness/useYield: a file that fails before its first chunk
            async *stream() {
              throw new Error('ENOENT');
            },
          }),
        },
      ],
    };
    const url: LogInput = { kind: 'url', name: 'https://example.test/log.ndjson', space: 'u', url: 'https://example.test/log.ndjson' };
    const good: LogInput = { kind: 'package', name: 'good', space: 'p', dir: () => nodeDir(GOOD, 'good') };
    const failed: string[] = [];
    const v = new LogVerifier();
    await loadSources([failing, url, good], v, {
      platform,
      isolate: async (name, load) => {
        await load().catch((e: Error) => failed.push(`${name}: ${e.message}`));
      },
    });
    expect(failed).toEqual(['gone.ndjson: ENOENT', 'https://example.test/log.ndjson: https://example.test/log.ndjson: URLs are not read here']);
    const report = await v.finish();
    expect(report.summary.receipts).toBeGreaterThan(0);
    await expect(loadSources([failing], new LogVerifier(), { platform })).rejects.toThrow('ENOENT');
  });
});
