// The browser verifies with many workers: records are split across several
// RecordVerifiers, their outputs cross a structured clone in the workers'
// compact form (as postMessage does) and reach one LogAssembler in any order. The report must be exactly
// the single-thread one. And the command line's two checkers, inline and a pool of real worker
// threads, must give the same report byte for byte on every corpus log and real log we hold.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { splitRecords } from '../sources/records';
import { testdataPath } from '../../test/support/testdata';
import { TrustStore } from '../trust/trust-store';
import { roleForFileName, PACKAGE_FILES } from '../sources/package';
import { LogAssembler } from './log-assembler';
import { LogVerifier } from './log-verifier';
import { recordVerifier } from './record-checker';
import { ORDER_STRIDE, type RecordOrigin, emptyOutput, markFailedViews, type RecordOutput } from './record-output';
import { reportToJson } from './report-json';
import { outputFromWire, outputToWire } from '../workers/wire';
import { capabilityToken, keyFromSeed, lineageRowOf } from '../../test/support/forge';
import { verifyPaths } from '../../bin/cli/main';

const KEY = 'd04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737';

async function recordsOf(dir: string): Promise<{ text: string; origin: RecordOrigin }[]> {
  const out: { text: string; origin: RecordOrigin }[] = [];
  for (const [name] of PACKAGE_FILES) {
    const bytes = new Uint8Array(readFileSync(path.join(dir, name)));
    const chunks = (async function* () {
      yield bytes;
    })();
    for await (const ev of splitRecords(name, chunks)) {
      if (ev.kind === 'record') out.push({ text: ev.text, origin: { file: name, line: ev.line, role: roleForFileName(name), space: 'pkg' } });
    }
  }
  return out;
}

function trust() {
  const t = TrustStore.create([{ key: KEY }]);
  if (!t.ok) throw new Error(t.error);
  return t.store;
}

/** A deterministic shuffle, so "any order" is tested without flakiness. */
function shuffled<T>(xs: T[], seed: number): T[] {
  const a = [...xs];
  let s = seed;
  for (let i = a.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

describe('parallel verification equals single-thread verification', () => {
  it.each(['tampered-field', 'bad-checkpoint-signature', 'duplicate-key'])('%s: 3 workers, batches of 37, cloned, delivered shuffled', async (name) => {
    const records = await recordsOf(testdataPath(`corpus/${name}`));

    const single = new LogVerifier({ trust: trust() });
    for (const r of records) await single.addRecord(r.text, r.origin);
    const expected = reportToJson(await single.finish());

    const workers = [0, 1, 2].map(() => recordVerifier(trust()));
    const batches: RecordOutput[] = [];
    for (let start = 0; start < records.length; start += 37) {
      const worker = workers[(start / 37) % workers.length]!;
      const out = emptyOutput();
      const pending = records.slice(start, start + 37).flatMap((r, i) => worker.verify(r.text, r.origin, (start + i) * ORDER_STRIDE, out));
      await Promise.all(pending);
      batches.push(outputFromWire(structuredClone(outputToWire(out))));
    }
    const assembler = new LogAssembler();
    for (const out of shuffled(batches, 7)) assembler.add(out);
    expect(reportToJson(assembler.finish(true))).toBe(expected);
  });
});

describe('lineage rows cross the worker boundary intact', () => {
  it('signed, failed and anchor rows with linked receipts: 3 workers, batches of 3, cloned, shuffled', async () => {
    const real = await recordsOf(testdataPath('chio/realworld-2026-09/minimal-evidence'));
    const rehashed = readFileSync(testdataPath('chio/realworld-2026-09/rehashed-changed-signed-token/capability-lineage.ndjson'), 'utf8').trim();
    const key = keyFromSeed(41);
    const lineage = (text: string, line: number) => ({ text, origin: { file: 'capability-lineage.ndjson', line, role: 'lineage' as const, space: 'pkg' } });
    const forged = capabilityToken({ id: 'cap-x', key, subject: keyFromSeed(42).publicHex });
    const records = [
      ...real,
      lineage(rehashed, 2),
      lineage(JSON.stringify(lineageRowOf(forged, { delegation_depth: 3 })), 3),
      lineage(
        JSON.stringify({ ...lineageRowOf(forged), capability_id: `fed-del-${'f'.repeat(64)}`, provenance: 'synthetic_anchor', signed_capability: undefined }),
        4,
      ),
      lineage('{"capability_id": 7}', 5),
    ];
    const single = new LogVerifier({ trust: trust() });
    for (const r of records) await single.addRecord(r.text, r.origin);
    const report = await single.finish();
    expect(report.lineage!.map((l) => l.verdict)).toEqual(['verified', 'failed', 'failed', 'verified']);
    const expected = reportToJson(report);

    const workers = [0, 1, 2].map(() => recordVerifier(trust()));
    const batches: RecordOutput[] = [];
    for (let start = 0; start < records.length; start += 3) {
      const out = emptyOutput();
      const pending = records.slice(start, start + 3).flatMap((r, i) => workers[(start / 3) % 3]!.verify(r.text, r.origin, (start + i) * ORDER_STRIDE, out));
      await Promise.all(pending);
      batches.push(outputFromWire(structuredClone(outputToWire(out))));
    }
    const assembler = new LogAssembler();
    for (const out of shuffled(batches, 11)) assembler.add(out);
    expect(reportToJson(assembler.finish(true))).toBe(expected);
  });
});

describe('rows marked failed while the log is still read', () => {
  it.each(['tampered-field', 'tampered-signature'])('%s: exactly the receipts whose own checks fail, all failed in the final report', async (name) => {
    const records = await recordsOf(testdataPath(`corpus/${name}`));
    const worker = recordVerifier(trust(), { views: true });
    const early = new Set<string>();
    const all: RecordOutput[] = [];
    for (let start = 0; start < records.length; start += 50) {
      const out = emptyOutput();
      await Promise.all(records.slice(start, start + 50).flatMap((r, i) => worker.verify(r.text, r.origin, (start + i) * ORDER_STRIDE, out)));
      markFailedViews(out);
      for (const v of out.views) if (v.failedEarly) early.add(v.id);
      all.push(out);
    }
    const assembler = new LogAssembler();
    for (const out of all) assembler.add(out);
    const report = assembler.finish(true);
    const failed = new Set(report.receipts.filter((r) => r.verdict === 'failed').map((r) => r.id));
    expect(early.size).toBeGreaterThan(0);
    for (const id of early) expect(failed.has(id), id).toBe(true);
    // Failures that need the whole log (inclusion) are only known at the end.
    const ownFailures = report.receipts.filter((r) => Object.entries(r.checks).some(([k, s]) => s === 'fail' && k !== 'inclusion'));
    expect([...early].sort()).toEqual(ownFailures.map((r) => r.id).sort());
  });
});

describe('the command line: inline and worker threads give the same report, byte for byte', () => {
  const corpus = readdirSync(testdataPath('corpus'), { withFileTypes: true }).filter((d) => d.isDirectory());
  const keysOf = (dir: string): string[] => (JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as { trust_keys?: string[] }).trust_keys ?? [];
  const cases: [string, string[], string[]][] = [
    ...corpus.map((d): [string, string[], string[]] => [`corpus/${d.name}`, [testdataPath(`corpus/${d.name}`)], keysOf(testdataPath(`corpus/${d.name}`))]),
    [
      'realworld-2026-09: a package, loose records, an envelope',
      ['minimal-evidence', 'paid-normal', 'claude-code-tool-result-text.json'].map((n) => testdataPath(`chio/realworld-2026-09/${n}`)),
      [],
    ],
    [
      'the showcase SQLite stores (one with its -wal)',
      ['operator', 'provider', 'federation', 'settlement-sidecar'].map((n) => testdataPath(`chio/showcase/sqlite/${n}-receipts.sqlite3`)),
      [],
    ],
    [
      "store rows, envelopes and other runtimes' receipts",
      ['chio/showcase/derived-from-sqlite', 'derived/envelopes', 'zeroclaw/doc-and-test-examples.json', 'codewhale/synthesized'].map(testdataPath),
      [],
    ],
  ];
  it.each(cases)('%s: inline and 2 worker threads', async (_, paths, keys) => {
    const pinned = TrustStore.create(keys.map((key) => ({ key })));
    if (!pinned.ok) throw new Error(pinned.error);
    const inline = reportToJson(await verifyPaths(paths, pinned.store, {}, false, 0));
    const threads = reportToJson(await verifyPaths(paths, pinned.store, {}, false, 2));
    expect(JSON.parse(inline).summary.receipts).toBeGreaterThan(0);
    expect(threads).toBe(inline);
  });
});
