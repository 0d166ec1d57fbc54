// Test and benchmark support: the /v1 API served by a child process
// (server/serve-receipt-api.ts, node:http → the same handlers as the Next
// routes), so SQLite is configured as in a real server process.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('./serve-receipt-api.ts', import.meta.url));
const ROOT = path.resolve(path.dirname(ENTRY), '..');

export interface LoopbackApi {
  /** e.g. http://127.0.0.1:40123 */
  origin: string;
  stderr: () => string;
  stop: () => Promise<void>;
}

/** Starts a server with `env` (RECEIPT_DB, RECEIPT_API_TOKEN, …) on 127.0.0.1; it exits when its stdin closes. */
export async function startApiServer(env: Record<string, string>): Promise<LoopbackApi> {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, '--exit-with-stdin'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  return {
    origin: line.replace(/^listening /, ''),
    stderr: () => stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin!.end();
      }),
  };
}
