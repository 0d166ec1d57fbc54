// Next.js proxy (Next 16's name for middleware): runs before every request — pages, RSC
// fetches, the /v1 API and static files (no matcher, on purpose) — to
//  1. append the request to the test request log (RECEIPT_AUDIT_REQUEST_LOG), first, so a
//     request that later fails is still logged;
//  2. give each page request a fresh nonce: Next reads it from the request's
//     Content-Security-Policy header and puts it on its own scripts (app/layout.tsx renders
//     every page per request for this);
//  3. set the Content-Security-Policy and the security headers on the response.
// The policy and headers are built in server/security-headers.ts.
import { type NextRequest, NextResponse } from 'next/server';
import { logRequest } from './server/request-log';
import { SECURITY_HEADERS, contentSecurityPolicy, newNonce, sourceOrigin } from './server/security-headers';

// Files and API answers: no inline script to allow, so no nonce (and the same header each time).
const NO_NONCE = /^\/(?:_next\/static\/|vendor\/|v1\/|icon\.svg$|favicon\.ico$)/;

// A dedicated Web Worker runs under the policy of its own script's response, which is a built
// chunk and cannot know which log the user will open. The log worker fetches the sources the user
// picks (a package or file URL on another server, with CORS), so built chunks allow connecting to
// any http(s) origin. Pages keep connect-src to 'self' (plus a ?source= origin): nothing the page's
// own code runs can reach elsewhere, and the worker fetches only what the user chose.
const WORKER_SCRIPTS = /^\/_next\/static\//;
const WORKER_CONNECT = ['http:', 'https:'];

export function proxy(request: NextRequest): NextResponse {
  logRequest(process.env.RECEIPT_AUDIT_REQUEST_LOG, request.method, request.url);
  const { pathname, origin, searchParams } = request.nextUrl;
  const nonce = NO_NONCE.test(pathname) ? null : newNonce();
  const source = nonce === null ? null : sourceOrigin(searchParams.get('source'), origin);
  const csp = contentSecurityPolicy(nonce, WORKER_SCRIPTS.test(pathname) ? WORKER_CONNECT : source === null ? [] : [source]);
  let response: NextResponse;
  if (nonce === null) {
    response = NextResponse.next();
  } else {
    const headers = new Headers(request.headers);
    headers.set('content-security-policy', csp);
    response = NextResponse.next({ request: { headers } });
  }
  response.headers.set('content-security-policy', csp);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}
