// Test-only: an adversarial variant (./adversary.ts, issue 7) through the command line: its files
// written to a folder, and `receipt-audit verify --json` run on it by the CLI's own `main`, in
// this process, for a report to judge (./adversary-judge.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../bin/cli/main';
import type { Variant } from './adversary';
import type { JudgedReport } from './adversary-judge';

/** Writes the variant's package files into `dir` (created if missing). */
export function writeVariant(v: Variant, dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(v.files)) writeFileSync(path.join(dir, name), text);
}

/** The arguments of `receipt-audit verify <dir> --json --trust-key …`. */
export const verifyArgs = (dir: string, keys: string[]): string[] => ['verify', dir, '--json', ...keys.flatMap((k) => ['--trust-key', k])];

/**
 * `receipt-audit verify <dir> --json --trust-key …` through the command line's own `main`, in this
 * process (argument parsing, file reading, the JSON report). Exit status 2 (usage or unreadable
 * input) throws with what it wrote to stderr.
 */
export async function verifyInProcess<R = JudgedReport>(dir: string, keys: string[]): Promise<{ status: number; report: R }> {
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks: Buffer[] = [];
  const errs: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  err.on('data', (c: Buffer) => errs.push(c));
  const status = await main(verifyArgs(dir, keys), out as unknown as typeof process.stdout, err as unknown as typeof process.stderr);
  if (status === 2) throw new Error(`receipt-audit exited 2 on ${dir}: ${Buffer.concat(errs).toString()}`);
  return { status, report: JSON.parse(Buffer.concat(chunks).toString()) as R };
}
