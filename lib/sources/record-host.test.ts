// The record host finds a verified log's receipt again by the report's file
// and line, with its checkpoint and proof (from a package's files, or computed
// from a store's batch); the bundle verifies alone to the same verdict.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeDir } from '../../bin/cli/node-source';
import { demoKernelKeyHex, generateDemoStore } from '../../tools/demo/generate';
import { verifyBundle } from '../share/bundle';
import { TrustStore } from '../trust/trust-store';
import { LogVerifier } from '../verify/log-verifier';
import type { VerificationReport } from '../verdict/report';
import { loadFile, loadPackage } from './package';
import { buildDossier } from '../receipt/dossier';
import { RecordHost } from './record-host';
import { openChioStore } from './sqlite-store';
import { loadStore } from './store';

const CORPUS = join(__dirname, '../testdata/corpus');

async function packageReport(dir: string): Promise<VerificationReport> {
  const v = new LogVerifier();
  await loadPackage(nodeDir(dir, dir), v, 'p');
  return v.finish();
}

describe('RecordHost', () => {
  for (const name of ['good', 'tampered-field', 'tampered-signature']) {
    it(`${name}: every 9th receipt comes back with its proof and verifies alone to the log's verdict`, async () => {
      const dir = join(CORPUS, name);
      const report = await packageReport(dir);
      const host = new RecordHost('test');
      host.addPackage(nodeDir(dir, dir));
      let proven = 0;
      for (const r of report.receipts.filter((_, i) => i % 9 === 0 || _.verdict !== 'verified')) {
        const answer = await host.bundle({ id: r.id, file: r.file, line: r.line });
        if (!answer.ok) throw new Error(answer.message);
        const alone = (await verifyBundle(answer.bundle)).receipts[0]!;
        expect(alone.id).toBe(r.id);
        expect([r.id, alone.verdict]).toEqual([r.id, r.verdict]);
        expect(alone.checks.inclusion).toBe(r.checks.inclusion);
        if (answer.bundle.proof) proven++;
      }
      expect(proven).toBeGreaterThan(3);
    });
  }

  it('a receipt read out of a Claude Code transcript comes back alone, lays open as a receipt, and verifies alone', async () => {
    const file = join(__dirname, '../testdata/derived/envelopes/claude-code-stream.jsonl');
    const bytes = readFileSync(file);
    const source = {
      name: 'claude-code-stream.jsonl',
      async *stream() {
        yield new Uint8Array(bytes);
      },
    };
    const v = new LogVerifier();
    await loadFile(source, v, 'files', 'claude-code-stream.jsonl');
    const report = await v.finish();
    const r = report.receipts[0]!;
    const host = new RecordHost('test');
    host.addFile(source, 'claude-code-stream.jsonl');
    const answer = await host.bundle({ id: r.id, file: r.file, line: r.line });
    if (!answer.ok) throw new Error(answer.message);
    // The receipt, not the transcript line around it (which holds the tool's output: nothing to share).
    expect(JSON.parse(answer.bundle.receipt).id).toBe(r.id);
    expect(answer.bundle.receipt).not.toContain('tool_use_result');
    const d = buildDossier(answer.bundle);
    expect(d.ok && d.dossier.id).toBe(r.id);
    const alone = (await verifyBundle(answer.bundle)).receipts[0]!;
    expect([alone.id, alone.checks.signature]).toEqual([r.id, 'pass']);
  });

  it('a bare receipt given with its checkpoint and proof as loose files (real v2 data): its proof is found by leaf, and it verifies alone with inclusion', async () => {
    const dir = join(__dirname, '../testdata/chio/realworld-2026-09/paid-normal');
    const host = new RecordHost('test');
    const v = new LogVerifier();
    for (const name of ['receipt.json', 'checkpoint.json', 'inclusion.json']) {
      const bytes = new Uint8Array(readFileSync(join(dir, name)));
      const source = {
        name,
        async *stream() {
          yield bytes;
        },
      };
      await loadFile(source, v, 'files', name);
      host.addFile(source, name);
    }
    const r = (await v.finish()).receipts[0]!;
    expect(r.checks.inclusion).toBe('pass');
    const answer = await host.bundle({ id: r.id, file: r.file, line: r.line });
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.bundle.proof).toBeDefined();
    expect(answer.bundle.checkpoint).toBeDefined();
    const alone = (await verifyBundle(answer.bundle)).receipts[0]!;
    expect([alone.id, alone.verdict, alone.checks.inclusion]).toEqual([r.id, r.verdict, 'pass']);
  });

  it('a wrong line or id is a clear answer, not a different receipt', async () => {
    const dir = join(CORPUS, 'good');
    const host = new RecordHost('test');
    host.addPackage(nodeDir(dir, dir));
    const first = JSON.parse(readFileSync(join(dir, 'receipts.ndjson'), 'utf8').split('\n')[0]!).receipt.id as string;
    expect(await host.bundle({ id: first, file: 'receipts.ndjson', line: 2 })).toEqual({
      ok: false,
      message: expect.stringContaining(`receipts.ndjson:2 no longer holds receipt ${first}`),
    });
  });

  describe('a demo SQLite store (claim log with child receipts, no stored proofs)', () => {
    let report: VerificationReport;
    let host: RecordHost;
    const trust = () => {
      const t = TrustStore.create([{ key: demoKernelKeyHex() }]);
      if (!t.ok) throw new Error(t.error);
      return t.store;
    };
    beforeAll(async () => {
      const out = mkdtempSync(join(tmpdir(), 'ra-host-'));
      const { storePath } = await generateDemoStore({ count: 330, out });
      const SQL = await initSqlJs();
      const bytes = new Uint8Array(readFileSync(storePath));
      const a = openChioStore(SQL, bytes);
      if (!a.ok) throw new Error(a.message);
      const v = new LogVerifier({ trust: trust() });
      await loadStore(a.store, 'receipts.sqlite3', v, 's');
      report = await v.finish();
      a.store.close();
      const b = openChioStore(SQL, bytes);
      if (!b.ok) throw new Error(b.message);
      host = new RecordHost('test');
      host.addStore('receipts.sqlite3', b.store);
    }, 120_000);

    it('checkpointed receipts get a computed proof that reaches the signed root', async () => {
      const sample = report.receipts.filter((r, i) => i % 17 === 0 && r.checks.inclusion === 'pass');
      expect(sample.length).toBeGreaterThan(10);
      for (const r of sample) {
        const answer = await host.bundle({ id: r.id, file: r.file, line: r.line });
        if (!answer.ok) throw new Error(answer.message);
        expect(answer.bundle.proof).toBeDefined();
        const alone = (await verifyBundle(answer.bundle, trust())).receipts[0]!;
        expect([r.id, alone.verdict, alone.checks.inclusion]).toEqual([r.id, 'verified', 'pass']);
      }
    });

    it('a child receipt of a store that checkpoints tool receipts only comes alone, and says why', async () => {
      const child = report.receipts.find((r) => r.type === 'child')!;
      const answer = await host.bundle({ id: child.id, file: child.file, line: child.line });
      expect(answer).toMatchObject({ ok: true, note: expect.stringContaining('does not checkpoint child receipts') });
      if (answer.ok) expect((await verifyBundle(answer.bundle, trust())).receipts[0]!.verdict).toBe(child.verdict);
    });

    it('a receipt of the uncheckpointed tail comes alone, and says why', async () => {
      const tail = report.receipts.find((r) => r.checks.inclusion === 'skipped' && r.type === 'tool')!;
      const answer = await host.bundle({ id: tail.id, file: tail.file, line: tail.line });
      expect(answer).toMatchObject({ ok: true, note: expect.stringContaining('uncheckpointed tail') });
    });
  });
});
