// Server side only: the Content-Security-Policy and the other security headers every
// response carries (issue 7, deliverable 3). proxy.ts sets them; this module only builds them.
//
// The policy, directive by directive, and why:
// - script-src: only scripts carrying this response's nonce (Next puts it on its bootstrap
//   and inline flight scripts) and what they load ('strict-dynamic', which also makes 'self'
//   a fallback for old browsers only). No 'unsafe-inline', no 'unsafe-eval'.
//   'wasm-unsafe-eval' lets sql.js and hash-wasm compile WebAssembly, and nothing else.
// - style-src-elem: our stylesheets and nonce'd <style> elements only.
// - style-src-attr 'unsafe-inline': without it the walk in e2e/csp.spec.ts reports 17
//   violations: React renders `style={…}` props into the server HTML as style attributes (the
//   receipt table's column widths, the virtual list's spacer) and ECharts writes its tooltips as
//   HTML with style attributes. A style attribute runs no script and has no selectors to leak
//   text with; <style> elements stay nonce-only.
// - connect-src: this origin (its /v1 API, /vendor WebAssembly, its own chunks), plus the
//   origin of a `?source=` URL the user opened the page with (the log they chose to read).
//   Built chunks get http: and https: too (proxy.ts): a Web Worker runs under its script's
//   policy, and the log worker fetches the URLs the user opens.
// - report-uri only, no report-to: Chromium prefers report-to when both are present and then
//   batches reports for up to a minute; report-uri posts each violation at once.
//   /v1/csp-report also accepts the Reporting API's application/reports+json.

export const CSP_REPORT_PATH = '/v1/csp-report';

/** A fresh nonce: 128 random bits, base64 (the CSP nonce grammar). */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

// An origin we are willing to write into the policy: scheme, host name or IPv4/bracketed IPv6,
// optional port. Anything else (spaces, semicolons, quotes: directive injection) is ignored.
const SAFE_ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin of a `?source=` value that names a log on another server, or null (a relative
 * URL, `server`, another scheme, or anything unparsable). Attacker-controlled: it comes from
 * the page's address.
 */
export function sourceOrigin(source: string | null, pageOrigin: string): string | null {
  if (source === null || source === 'server') return null;
  let url: URL;
  try {
    url = new URL(source, pageOrigin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.origin === pageOrigin) return null;
  return SAFE_ORIGIN.test(url.origin) ? url.origin : null;
}

/** The Content-Security-Policy value, one line. `nonce` null: no inline script at all. */
export function contentSecurityPolicy(nonce: string | null, extraConnect: string[] = []): string {
  // Without a nonce (files, API answers; also what a Web Worker's script is governed by),
  // 'strict-dynamic' would leave no source trusted at all, so 'self' stands alone.
  const nonceSource = nonce === null ? [] : [`'nonce-${nonce}'`, "'strict-dynamic'"];
  const styleNonce = nonce === null ? [] : [`'nonce-${nonce}'`];
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", ...nonceSource, "'wasm-unsafe-eval'", "'report-sample'"],
    ['style-src', "'self'", ...styleNonce, "'report-sample'"],
    ['style-src-elem', "'self'", ...styleNonce, "'report-sample'"],
    ['style-src-attr', "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', 'blob:'],
    ['font-src', "'self'"],
    ['worker-src', "'self'", 'blob:'],
    ['connect-src', "'self'", ...extraConnect],
    ['object-src', "'none'"],
    ['base-uri', "'none'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
    ['report-uri', CSP_REPORT_PATH],
  ];
  return directives.map((d) => d.join(' ')).join('; ');
}

/** Headers for every response: pages, the API and static files. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'permissions-policy':
    'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), bluetooth=(), midi=(), ' +
    'magnetometer=(), gyroscope=(), accelerometer=(), display-capture=(), browsing-topics=()',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
