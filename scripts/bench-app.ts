// What the page benchmarks (bench, bench:page, bench:readers, bench:dag) share:
// a demo store of a given size, generated once into a cache folder, the app
// served on it (scripts/start.mjs with RECEIPT_DB, on 127.0.0.1, building
// first when the build is stale), and the browser's memory.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDemoStore } from '../tools/demo/generate';
import { descendants } from './bench/child';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** GET with node:http (the first package request exports the whole store: longer than fetch's header timeout). */
export function httpGet(url: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
      })
      .on('error', reject);
  });
}

/** Serves the app on `store` at 127.0.0.1:`port`; `onStartLine` sees start.mjs's own "start: …" lines. */
export async function serveApp(o: {
  store: string;
  cacheDir: string;
  port: number;
  onStartLine?: (line: string) => void;
}): Promise<{ origin: string; stop(): Promise<void> }> {
  const origin = `http://127.0.0.1:${o.port}`;
  if (
    await httpGet(origin).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`something already listens on ${origin} (use --port)`);
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: { ...process.env, RECEIPT_DB: o.store, RECEIPT_CACHE_DIR: o.cacheDir, RECEIPT_API_TOKEN: '', HOST: '127.0.0.1', PORT: String(o.port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const keepTail = (d: Buffer) => {
    for (const line of d.toString().split('\n')) {
      if (line.startsWith('start:')) o.onStartLine?.(line);
      tail.push(line);
    }
    tail.splice(0, Math.max(0, tail.length - 40));
  };
  child.stdout!.on('data', keepTail);
  child.stderr!.on('data', keepTail);
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
  const deadline = Date.now() + 15 * 60_000; // a stale build is rebuilt first
  while (
    !(await httpGet(origin).then(
      (r) => r.status === 200,
      () => false,
    ))
  ) {
    const gone = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 500))]);
    if (gone !== null || Date.now() > deadline) throw new Error(`the app did not start (exit ${gone}):\n${tail.join('\n')}`);
  }
  return {
    origin,
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The demo store of `count` tool receipts under `dir`, generated unless a complete one is there. */
export async function ensureDemoStore(dir: string, count: number, log: (s: string) => void): Promise<{ store: string; generatedMs: number | null }> {
  const out = path.join(dir, `store-${count}`);
  const marker = path.join(out, 'counts.json');
  const store = path.join(out, 'receipts.sqlite3');
  if (existsSync(marker) && existsSync(store)) return { store, generatedMs: null };
  rmSync(out, { recursive: true, force: true }); // an interrupted generation
  log(`generating a demo store of ${count.toLocaleString('en-US')} tool receipts in ${out} …`);
  const t0 = performance.now();
  const r = await generateDemoStore({ count, out, onProgress: (n) => log(`  ${n.toLocaleString('en-US')} tool receipts`) });
  // The counts hold exact amounts (bigint): written as decimal strings.
  writeFileSync(marker, `${JSON.stringify(r.counts, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);
  return { store, generatedMs: performance.now() - t0 };
}

/** Kilobytes of PSS over every process under this one whose name says Chromium. */
export function browserPssKb(): number {
  let kb = 0;
  for (const pid of descendants(process.pid)) {
    try {
      if (/chrom/i.test(readFileSync(`/proc/${pid}/comm`, 'utf8')))
        kb += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      /* exited */
    }
  }
  return kb;
}
