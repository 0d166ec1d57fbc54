// Runners A and B of `npm run bench` (../bench.ts, issue 6), each a child process timed by
// ./child.ts: the native baseline (./native-baseline.ts) and the CLI's `verify --json`, whose
// summary must say it verified every receipt.
import { runMeasured } from './child';
import type { BaselineResult } from './native-baseline';

export interface NativeRun {
  ms: number;
  receipts_per_s: number;
  peak_memory_mb: number;
  receipts: number;
  signatures_valid: number;
  checkpoints: number;
  roots_matching: number;
}

export async function runNative(pkg: string): Promise<Omit<NativeRun, 'receipts_per_s'>> {
  const r = await runMeasured(process.execPath, ['--import', 'tsx', 'scripts/bench/native-baseline.ts', pkg, '--json']);
  if (r.code !== 0) throw new Error(`the native baseline exited ${r.code}:\n${r.stdout.slice(0, 2000)}`);
  const b = JSON.parse(r.stdout) as BaselineResult;
  return {
    ms: b.ms,
    peak_memory_mb: b.peakRssMb,
    receipts: b.receipts,
    signatures_valid: b.signaturesValid,
    checkpoints: b.checkpoints,
    roots_matching: b.rootsMatching,
  };
}

export async function runCli(pkg: string, key: string): Promise<{ ms: number; peak_memory_mb: number; receipts: number }> {
  // Only the start is kept: the summary comes second, and a million receipts' report is ~0.5 GB.
  const r = await runMeasured(process.execPath, ['bin/receipt-audit.mjs', 'verify', pkg, '--trust-key', key, '--json'], { keepStdout: 4096 });
  const m = /"summary":\s*(\{[^}]*\})/.exec(r.stdout);
  if (!m) throw new Error(`receipt-audit exited ${r.code} without a summary:\n${r.stdout.slice(0, 2000)}`);
  const s = JSON.parse(m[1]!) as { receipts: number; verified: number; failed: number; unverified: number };
  if (s.verified !== s.receipts || r.code !== 0)
    throw new Error(`receipt-audit verified ${s.verified} of ${s.receipts} receipts (failed ${s.failed}, unverified ${s.unverified}, exit ${r.code})`);
  if (r.peakRssMb === null) throw new Error('receipt-audit exited before its memory could be read');
  return { ms: r.ms, peak_memory_mb: r.peakRssMb, receipts: s.receipts };
}
