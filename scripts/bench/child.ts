// One benchmarked child process: wall time from spawn to exit, and its peak resident memory
// from /proc/<pid>/status VmHWM (Linux's resident high-water mark), polled until it exits.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ChildRun {
  code: number;
  /** Spawn → exit, ms. */
  ms: number;
  /** The last VmHWM read before the process exited, MB; null if it exited before the first read. */
  peakRssMb: number | null;
  /** The first `keepStdout` characters of stdout (a million receipts' JSON report is larger than a string can be). */
  stdout: string;
  stdoutBytes: number;
}

export function runMeasured(cmd: string, args: string[], o: { keepStdout?: number; pollMs?: number } = {}): Promise<ChildRun> {
  const keep = o.keepStdout ?? Infinity;
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    let stdoutBytes = 0;
    let peakKb: number | null = null;
    let ms: number | null = null;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      stdoutBytes += Buffer.byteLength(d);
      if (stdout.length < keep) stdout += d.slice(0, keep - stdout.length);
    });
    const sample = () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKb = Math.max(peakKb ?? 0, Number(m[1]));
      } catch {
        /* exited */
      }
    };
    sample();
    const poll = setInterval(sample, o.pollMs ?? 50);
    child.once('error', (e) => {
      clearInterval(poll);
      reject(e);
    });
    child.once('exit', () => {
      ms = performance.now() - t0;
      clearInterval(poll);
    });
    child.once('close', (code) => {
      clearInterval(poll);
      resolve({ code: code ?? 1, ms: ms ?? performance.now() - t0, peakRssMb: peakKb === null ? null : peakKb / 1024, stdout, stdoutBytes });
    });
  });
}
