// Issue 20: a store with receipts deleted, served with RECEIPT_DB over real HTTP on 127.0.0.1.
// The server is not trusted to be honest, but it must not help an attacker either: the package
// it exports carries every checkpoint the store holds, so the command line (a real process, the
// demo key pinned) fails the batches whose receipts are gone instead of calling them an
// uncheckpointed tail. One demo store is generated once and copied for each case: 250 tool
// receipts checkpointed every 20 (the kernel's default is 100; the batch size changes nothing
// here and keeps the test fast), so twelve checkpoints, v1 then v2, and a tail of ten.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { demoKernelKeyHex, generateDemoStore } from '../tools/demo/generate';
import { runCli } from '../test/support/cli-process';
import { type LoopbackApi, startApiServer } from './loopback-api';

const TOKEN = 'tamper-test-token-0b7e';
let dir: string;
let demo: string;
const servers: LoopbackApi[] = [];
const served = new Map<string, LoopbackApi>();

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ra-tamper-'));
  demo = (await generateDemoStore({ count: 250, checkpointEvery: 20, out: path.join(dir, 'demo') })).storePath;
  // Both tampered copies served at once (each server is a process of its own).
  const cases: [string, number[]][] = [
    ['two-deleted', [7, 115]],
    ['batch-10', [190]],
  ];
  await Promise.all(
    cases.map(async ([name, seqs]) => {
      const api = await startApiServer({
        RECEIPT_DB: withoutReceipts(name, seqs),
        RECEIPT_API_TOKEN: TOKEN,
        RECEIPT_CACHE_DIR: path.join(dir, `${name}-cache`),
      });
      servers.push(api);
      served.set(name, api);
    }),
  );
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

/** A copy of the demo store without the tool receipts at `seqs` (as someone with the file could make it). */
function withoutReceipts(name: string, seqs: number[]): string {
  const folder = path.join(dir, name);
  mkdirSync(folder);
  const file = path.join(folder, 'receipts.sqlite3');
  copyFileSync(demo, file);
  const db = new Database(file);
  db.prepare(`DELETE FROM chio_tool_receipts WHERE seq IN (${seqs.map(() => '?').join(',')})`).run(...seqs);
  db.close();
  return file;
}

/** Downloads the evidence package the server of case `name` serves into a folder, as a user would. */
async function downloadPackage(name: string): Promise<string> {
  const api = served.get(name)!;
  const auth = { authorization: `Bearer ${TOKEN}` };
  const index = (await (await fetch(`${api.origin}/v1/evidence/package`, { headers: auth })).json()) as { files: { path: string; url: string }[] };
  const out = path.join(dir, `${name}-package`);
  mkdirSync(out);
  for (const f of index.files) {
    const res = await fetch(`${api.origin}${f.url}`, { headers: auth });
    expect(res.status, f.path).toBe(200);
    writeFileSync(path.join(out, f.path), Buffer.from(await res.arrayBuffer()));
  }
  return out;
}

const ALL = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);
const checkpointSeqs = (pkg: string) => lines(path.join(pkg, 'checkpoints.ndjson')).map((l) => JSON.parse(l).body.checkpoint_seq as number);

interface JsonReceipt {
  type: string;
  seq?: number | string;
  verdict: string;
  checks: Record<string, string | undefined>;
}

describe('a served store with receipts deleted', () => {
  it("two deleted (one in checkpoint 1's batch): every checkpoint is exported, and the CLI fails inclusion on both batches", async () => {
    const pkg = await downloadPackage('two-deleted');
    expect(checkpointSeqs(pkg)).toEqual(ALL);
    expect(JSON.parse(readFileSync(path.join(pkg, 'manifest.json'), 'utf8')).counts.checkpoints).toBe(12);

    const run = await runCli(['verify', pkg, '--trust-key', demoKernelKeyHex(), '--json']);
    const report = JSON.parse(run.stdout) as { ok: boolean; receipts: JsonReceipt[]; problems: { code: string; message: string }[] };
    expect(report.ok).toBe(false);
    expect(run.code).not.toBe(0);
    const tools = report.receipts.filter((r) => r.type === 'tool');
    expect(tools).toHaveLength(248);
    const inclusion = (batch: number) => [...new Set(tools.filter((r) => Math.ceil(Number(r.seq) / 20) === batch).map((r) => r.checks.inclusion))];
    // The two tampered batches (1 and 6) fail; the other ten still verify; the tail stays the tail.
    for (const batch of ALL) expect(inclusion(batch), `batch ${batch}`).toEqual([batch === 1 || batch === 6 ? 'fail' : 'pass']);
    expect(inclusion(13)).toEqual(['skipped']);
    const codes = report.problems.map((p) => p.code);
    expect(codes).toContain('inclusion_failed');
    expect(report.problems.filter((p) => p.code === 'missing_receipt').map((p) => p.message)).toEqual(
      expect.arrayContaining([expect.stringContaining('seq 7,'), expect.stringContaining('seq 115,')]),
    );
  }, 60_000);

  it('one receipt of batch 10 deleted: checkpoint 10 is still exported', async () => {
    const pkg = await downloadPackage('batch-10');
    expect(checkpointSeqs(pkg)).toEqual(ALL);
    // Batch 10's receipts have no proof (its root cannot be rebuilt from what is stored), the others do.
    const proved = new Set(lines(path.join(pkg, 'inclusion-proofs.ndjson')).map((l) => JSON.parse(l).checkpoint_seq as number));
    expect([...proved].sort((a, b) => a - b)).toEqual(ALL.filter((c) => c !== 10));
    expect(lines(path.join(pkg, 'checkpoint-publications.ndjson'))).toHaveLength(12);
  }, 60_000);
});
