// Server side only: a log of every request the server receives, for tests (issue 7,
// deliverable 5): with RECEIPT_AUDIT_REQUEST_LOG=<file>, proxy.ts appends one JSON line
// `{"method","url"}` per request (pages, RSC, API, static files), the URL as path + query,
// as it came in, except that a `token=` value is never written (issue 20: redact.ts). The e2e
// tests read it, e.g. to show a share link's fragment never arrives.
import { appendFileSync } from 'node:fs';
import { redactSecrets } from './redact';

export function logRequest(file: string | undefined, method: string, url: string): void {
  if (!file) return;
  const { pathname, search } = new URL(url);
  appendFileSync(file, `${JSON.stringify({ method, url: redactSecrets(pathname + search) })}\n`);
}
