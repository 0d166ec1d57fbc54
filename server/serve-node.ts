// Server side only: serves a fetch-style handler (`Request` → `Response`) from a plain node:http
// server on 127.0.0.1, for tests and benchmarks that exercise the API over real HTTP without Next.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JSON_HEADERS } from './http';
import { logServerError, redactSecrets } from './redact';
import { SECURITY_HEADERS, contentSecurityPolicy } from './security-headers';

/** What proxy.ts adds to every answer under Next, added here too (an answer that lacks them gets them). */
const EVERY_RESPONSE: Record<string, string> = { ...SECURITY_HEADERS, 'content-security-policy': contentSecurityPolicy(null) };

export type FetchHandler = (request: Request) => Promise<Response>;

export interface LoopbackServer {
  /** e.g. http://127.0.0.1:40123 */
  origin: string;
  close(): Promise<void>;
}

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? 'GET';
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    body = Buffer.concat(chunks);
  }
  return new Request(new URL(req.url ?? '/', origin), { method, headers, body: body as BodyInit | undefined });
}

async function send(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = { ...EVERY_RESPONSE };
  response.headers.forEach((value, name) => (headers[name] = value));
  const body = Buffer.from(await response.arrayBuffer());
  if (!('content-length' in headers)) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}

export async function serveOnLoopback(handler: FetchHandler): Promise<LoopbackServer> {
  let origin = '';
  const server = createServer((req, res) => {
    toRequest(req, origin)
      .then(handler)
      .then((response) => send(response, res))
      .catch((e: unknown) => {
        logServerError(`serve-node: ${req.method ?? '?'} ${redactSecrets(req.url ?? '')}`, e);
        if (!res.headersSent) res.writeHead(500, JSON_HEADERS);
        res.end('{"error":{"code":"internal_error","message":"internal error"}}');
      });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
