// `npm start` on a port it cannot have (issue 21): one clear line naming the port and what to do,
// exit 1, no stack trace, and before any build. A real listener on 127.0.0.1 holds the port.
import { spawnSync } from 'node:child_process';
import { type Server, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const START = join(__dirname, 'start.mjs');
let holder: Server;
let port: number;

beforeAll(async () => {
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  port = (holder.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

function start(env: Record<string, string>) {
  return spawnSync(process.execPath, [START], { env: { ...process.env, HOST: '127.0.0.1', ...env }, encoding: 'utf8', timeout: 60_000 });
}

describe('npm start on a port it cannot have', () => {
  it('a busy port: one line, exit 1, no stack trace, nothing built or served', () => {
    const r = start({ PORT: String(port) });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      `start: port ${port} on 127.0.0.1 is already in use (another \`npm start\`?); stop it, or choose another port: PORT=${port + 1} npm start`,
    ]);
    expect(r.stdout).not.toMatch(/building|Receipt Audit on/);
  });

  it('a PORT that is not a number says so', () => {
    const r = start({ PORT: '30x0' });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('start: PORT=30x0 is not a port number (1 to 65535)');
  });
});
