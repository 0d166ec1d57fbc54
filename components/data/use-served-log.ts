'use client';
// Loads the server's receipt store through the evidence-export API and
// verifies it here, in the browser, with lib/ (the server is never trusted:
// it serves bytes; every hash and signature is recomputed on this page).
import { useEffect, useState } from 'react';
import { LogVerifier } from '../../lib/verify/log-verifier';
import type { VerificationReport } from '../../lib/verify/report';

export type ServedLog =
  | { state: 'loading'; step: string }
  | { state: 'error'; message: string }
  | { state: 'done'; report: VerificationReport; bytes: number; ms: number };

/** Fetches `POST /v1/evidence/export` (the whole store) and verifies it. */
export function useServedLog(): ServedLog {
  const [log, setLog] = useState<ServedLog>({ state: 'loading', step: 'Fetching the receipt log from the server…' });
  useEffect(() => {
    const abort = new AbortController();
    (async () => {
      const t0 = performance.now();
      const res = await fetch('/v1/evidence/export', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: {} }),
        signal: abort.signal,
      });
      if (!res.ok) {
        const detail = await res.text().catch(() => '');
        throw new Error(`the server answered ${res.status} ${res.statusText}${detail ? `: ${detail.slice(0, 300)}` : ''}`);
      }
      const text = await res.text();
      setLog({ state: 'loading', step: `Verifying ${Math.round(text.length / 1024)} KiB in this browser…` });
      const verifier = new LogVerifier();
      await verifier.addRecord(text, { file: 'POST /v1/evidence/export', line: 1, role: 'auto', space: 'server' });
      const report = await verifier.finish();
      if (!abort.signal.aborted) setLog({ state: 'done', report, bytes: text.length, ms: Math.round(performance.now() - t0) });
    })().catch((e: unknown) => {
      if (!abort.signal.aborted) setLog({ state: 'error', message: e instanceof Error ? e.message : String(e) });
    });
    return () => abort.abort();
  }, []);
  return log;
}
