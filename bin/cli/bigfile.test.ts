// Big and broken input through the command line as a user runs it (issue 7 §4):
// real files on disk (a 2 GiB NDJSON log and 1 GiB of seeded garbage, generated
// once under the temp folder and removed), a real process, its peak memory.
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import initSqlJs from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BigNdjson, writeBigNdjson, writeGarbage } from '../../test/support/bigfile/generate';
import { runMeasured } from '../../scripts/bench/child';
import { generateDemoStore } from '../../tools/demo/generate';
import { goodLog, keyFromSeed, ndjson } from '../../test/support/forge';
import { damagePage, leafPages, rootPage } from '../../test/support/sqlite-pages';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = path.join(ROOT, 'bin/receipt-audit.mjs');
const GiB = 2 ** 30;
/** The memory bound for the tab; the command line must stay under it too. */
const MEMORY_LIMIT_MB = 2500;

interface JsonReport {
  ok: boolean;
  summary: { receipts: number; verified: number; failed: number };
  receipts: { id: string; verdict: string }[];
  problems: { code: string; file?: string; line?: number; message: string }[];
  packages: { checks: { manifest: string } }[];
}

async function cli(args: string[]) {
  const run = await runMeasured(process.execPath, [BIN, 'verify', ...args], { pollMs: 100 });
  return { ...run, report: () => JSON.parse(run.stdout) as JsonReport };
}

/** For refusals: exit status and stderr (runMeasured passes stderr through). */
function refused(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'verify', ...args], { cwd: ROOT }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

/** A package folder with `files` (name → path of the content on disk) and a correct manifest. */
/** A manifest of today's format (its query states a read boundary, so the only problems are the ones under test). */
function packageWith(dir: string, files: Record<string, { sha256: string; bytes: number }>): void {
  const manifest = {
    schema: 'chio.evidence_export_manifest.v1',
    exportedAt: 1767999999,
    query: { readBoundary: { kind: 'admin_all' } },
    files: Object.entries(files).map(([p, f]) => ({ path: p, ...f })),
  };
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
}

/** goodLog's kernel key, pinned: a receipt is verified only under a pinned key (contract part 2 §11). */
const GOOD_LOG_KEY = keyFromSeed(7).publicHex;

let dir: string;
let big: BigNdjson;
let bigPath: string;
let garbagePkg: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ra-bigfile-'));
  bigPath = path.join(dir, 'big.ndjson');
  big = writeBigNdjson(bigPath);
  garbagePkg = path.join(dir, 'garbage-pkg');
  mkdirSync(garbagePkg);
  const receipts = ndjson(goodLog(12, 0).receipts.map((receipt, i) => ({ seq: i + 1, receipt })));
  writeFileSync(path.join(garbagePkg, 'receipts.ndjson'), receipts);
  const garbageSha = writeGarbage(path.join(garbagePkg, 'child-receipts.ndjson'), GiB, 'cli-garbage');
  packageWith(garbagePkg, {
    'receipts.ndjson': { sha256: sha256(receipts), bytes: Buffer.byteLength(receipts) },
    'child-receipts.ndjson': { sha256: garbageSha, bytes: GiB },
  });
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('receipt-audit on big and broken files', () => {
  it('a 2 GiB NDJSON log: every record over 16 MiB is one parse_error at its line, all 300 receipts verify, memory stays flat', async () => {
    const run = await cli([bigPath, '--trust-key', big.kernelKeyHex, '--json']);
    const report = run.report();
    console.log(`2 GiB NDJSON (${big.bytes} bytes): ${(run.ms / 1000).toFixed(1)} s, peak RSS ${run.peakRssMb?.toFixed(0)} MB`);
    expect(run.code).toBe(1);
    expect(report.summary).toMatchObject({ receipts: 300, verified: 300, failed: 0 });
    expect(report.receipts.map((r) => r.id).sort()).toEqual([...big.receiptIds].sort());
    expect(report.problems).toEqual(
      big.oversized.map((o) => ({
        code: 'parse_error',
        severity: 'error',
        file: bigPath,
        line: o.line,
        message: `record over 16 MiB (${o.bytes} bytes): skipped without reading it whole`,
      })),
    );
    expect(big.oversized.some((o) => o.bytes >= 300 * 2 ** 20)).toBe(true);
    expect(run.peakRssMb).toBeLessThan(MEMORY_LIMIT_MB);
  }, 180_000);

  it('1 GiB of garbage as a loose file: refused at once, naming the file and the first binary byte', async () => {
    const garbage = path.join(garbagePkg, 'child-receipts.ndjson');
    const run = await refused([garbage]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      new RegExp(
        `^receipt-audit: unknown format: ${garbage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not a text log: binary data at byte \\d+ \\(line \\d+\\)\n$`,
      ),
    );
  }, 60_000);

  it('1 GiB of garbage inside a package: one problem naming it, the manifest still checks every byte, the receipts verify', async () => {
    const run = await cli([garbagePkg, '--trust-key', GOOD_LOG_KEY, '--json']);
    const report = run.report();
    console.log(`package with 1 GiB garbage: ${(run.ms / 1000).toFixed(1)} s, peak RSS ${run.peakRssMb?.toFixed(0)} MB`);
    expect(run.code).toBe(1);
    expect(report.summary).toMatchObject({ receipts: 12, verified: 12 });
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({
      code: 'parse_error',
      file: 'child-receipts.ndjson',
      line: 1,
      message: expect.stringMatching(/^child-receipts\.ndjson is not a text log: binary data at byte \d+; the rest of it was not read$/),
    });
    expect(report.packages[0]!.checks.manifest).toBe('pass');
    expect(run.peakRssMb).toBeLessThan(MEMORY_LIMIT_MB);
  }, 120_000);
});

describe('receipt-audit on cut, damaged and incomplete input', () => {
  it('NDJSON and a JSON array cut in the middle of a record: parse_error at the last line, the rest verifies', async () => {
    const receipts = goodLog(5, 0).receipts.map((r) => JSON.stringify(r));
    const nd = path.join(dir, 'cut.ndjson');
    writeFileSync(nd, receipts.join('\n').slice(0, -40));
    const arr = path.join(dir, 'cut.json');
    writeFileSync(arr, `[\n${receipts.join(',\n')}\n]`.slice(0, -60));
    for (const [file, line] of [
      [nd, 5],
      [arr, 6],
    ] as const) {
      const run = await cli([file, '--trust-key', GOOD_LOG_KEY, '--json']);
      const report = run.report();
      expect(run.code, file).toBe(1);
      expect(report.summary, file).toMatchObject({ receipts: 4, verified: 4 });
      expect(report.problems, file).toEqual([
        expect.objectContaining({
          code: 'parse_error',
          file,
          line,
          message: expect.stringMatching(/^the file ends in the middle of a record: .*\(the file is truncated\)$/),
        }),
      ]);
    }
  }, 60_000);

  it('a store with a damaged b-tree page: the lost seqs are named, the other rows load, exit 1', async () => {
    const storeDir = path.join(dir, 'store');
    const generated = await generateDemoStore({ count: 300, seed: 'cli-damaged', out: storeDir });
    const image = new Uint8Array(readFileSync(generated.storePath));
    const SQL = await initSqlJs();
    const leaves = leafPages(image, rootPage(SQL, image, 'chio_tool_receipts'));
    const file = path.join(storeDir, 'damaged.sqlite3');
    writeFileSync(file, damagePage(image, leaves[Math.floor(leaves.length / 2)]!));
    const run = await cli([file, '--trust-key', generated.kernelKeyHex, '--json']);
    expect(run.code).toBe(1);
    const report = run.report();
    const lost = report.problems.find((p) => /could not be read/.test(p.message));
    expect(lost).toMatchObject({
      code: 'parse_error',
      file: 'damaged.sqlite3#chio_tool_receipts',
      message: expect.stringMatching(/row \d+: seq \d+ to \d+ could not be read \(database disk image is malformed\); reading went on at seq \d+$/),
    });
    const [from, to] = /seq (\d+) to (\d+)/.exec(lost!.message)!.slice(1).map(Number) as [number, number];
    expect(report.summary.receipts).toBeGreaterThan(0);
    // Receipts whose batch lost rows cannot prove inclusion: nothing from the damaged range, and not all verified.
    expect(report.summary.verified).toBeLessThan(report.summary.receipts);
    expect(to).toBeGreaterThanOrEqual(from);
  }, 120_000);

  it('a SQLite file over 2 GiB: exit 2 with what to do instead, without reading it', async () => {
    const file = path.join(dir, 'huge.sqlite3');
    const fd = openSync(file, 'w');
    writeSync(fd, Buffer.from('SQLite format 3\0'));
    closeSync(fd);
    truncateSync(file, 2 * GiB + 4096); // sparse: no disk used
    const run = await refused([file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `receipt-audit: ${file} is 2.0 GiB: the SQLite reader (sql.js) holds a whole store in memory, so it reads stores up to 2 GiB. Export it as an evidence package`,
    );
  }, 60_000);

  it('a package whose manifest lists absent files: one manifest problem per file, the present receipts verify', async () => {
    const pkg = path.join(dir, 'incomplete');
    mkdirSync(pkg);
    const receipts = ndjson(goodLog(6, 0).receipts.map((receipt, i) => ({ seq: i + 1, receipt })));
    writeFileSync(path.join(pkg, 'receipts.ndjson'), receipts);
    packageWith(pkg, {
      'receipts.ndjson': { sha256: sha256(receipts), bytes: Buffer.byteLength(receipts) },
      'checkpoints.ndjson': { sha256: sha256('x'), bytes: 1 },
      'inclusion-proofs.ndjson': { sha256: sha256('y'), bytes: 1 },
    });
    const run = await cli([pkg, '--trust-key', GOOD_LOG_KEY, '--json']);
    expect(run.code).toBe(1);
    const report = run.report();
    expect(report.summary).toMatchObject({ receipts: 6, verified: 6 });
    expect(report.problems.map((p) => `${p.code} ${p.file}: ${p.message}`)).toEqual([
      'manifest_mismatch checkpoints.ndjson: checkpoints.ndjson is listed in manifest.json but is not in the folder',
      'manifest_mismatch inclusion-proofs.ndjson: inclusion-proofs.ndjson is listed in manifest.json but is not in the folder',
    ]);
  }, 60_000);
});
