import { existsSync, readFileSync } from 'node:fs';
import type { CspViolation } from '../server/csp-report';

// The e2e server's own logs (playwright.config.ts sets the paths; server/csp-report.ts
// and server/request-log.ts write them): every CSP violation a browser reported, and
// every request the server received.

export interface LoggedRequest {
  method: string;
  url: string;
}

function readLines<T>(variable: 'RECEIPT_AUDIT_CSP_LOG' | 'RECEIPT_AUDIT_REQUEST_LOG'): T[] {
  const file = process.env[variable];
  if (!file) throw new Error(`${variable} is not set: run the tests through playwright.config.ts`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

/** In the sample of every violation a test causes or posts on purpose; any other is a bug. */
export const CSP_PROBE = 'csp-probe-';

/** Every CSP violation reported to the server so far, by any test. */
export const cspViolations = (): CspViolation[] => readLines<CspViolation>('RECEIPT_AUDIT_CSP_LOG');

/** Every request the server has received so far, by any test. */
export const loggedRequests = (): LoggedRequest[] => readLines<LoggedRequest>('RECEIPT_AUDIT_REQUEST_LOG');
