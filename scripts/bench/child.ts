// One benchmarked child process: wall time from spawn to exit, and its peak resident memory
// from /proc/<pid>/status VmHWM (Linux's resident high-water mark) of it and its children,
// polled until it exits (a high-water mark only grows, so a coarse poll loses little).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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
    // The process and its children (receipt-audit runs itself again with a larger heap on large
    // inputs): each one's high-water mark, summed.
    const peaks = new Map<number, number>();
    const sample = () => {
      for (const pid of [child.pid!, ...descendants(child.pid!)]) {
        try {
          const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
          if (m) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, Number(m[1])));
        } catch {
          /* exited */
        }
      }
      if (peaks.size) peakKb = [...peaks.values()].reduce((a, b) => a + b, 0);
    };
    sample();
    const poll = setInterval(sample, o.pollMs ?? 200);
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

/** Every process below `pid` (Linux /proc). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      /* exited */
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}
