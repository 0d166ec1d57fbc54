// The flags every Chromium of ours runs with (Playwright's tests and the benchmarks): no sandbox
// (root in a container), no GPU, and the networking flags that stop Chromium from flooding the
// closed network with retries.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
