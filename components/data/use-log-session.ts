'use client';
// The page's handle on a verification session: starts the log worker (which
// reads the sources and runs the verify workers), and exposes progress, the
// streamed receipt rows and the final report. The main thread never verifies.
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  type DialectFacts,
  type DialectInputs,
  type FleetPageInfo,
  type LogEvent,
  type LogSource,
  type Progress,
  describeSources,
} from '../../lib/workers/protocol';
import { readCheckpointMemory } from './use-checkpoint-memory';
import type { PinnedKey } from '../../lib/trust/trust-store';
import { RowStore } from '../../lib/query/row-store';
import type { ReportReceipt, VerificationReport } from '../../lib/verify/report';
import { fromReceiptColumns } from '../../lib/verify/receipt-columns';
import type { BundleAnswer, BundleQuery } from '../../lib/sources/record-host';
import type { VerifiedCheckpoint } from '../../lib/verify/verified-checkpoints';
import type { LineageSet } from '../../lib/sources/lineage';

/** Receipts rebuilt per task when a report arrives (about 10 ms each). */
const REBUILD_SLICE = 20_000;

export type Session =
  | { status: 'idle' }
  | { status: 'running'; label: string; progress: Progress | null; rows: number }
  | {
      status: 'done';
      label: string;
      progress: Progress;
      report: VerificationReport;
      rows: number;
      verifiedCheckpoints: VerifiedCheckpoint[];
      /** Capability lineage from the sources: unsigned context, not verified evidence. */
      lineage: LineageSet;
      /**
       * ZeroClaw and CodeWhale receipts' facts for their pages (not part of the report), by receipt id;
       * in log order, like the report's receipts, since two receipts can share an id (CodeWhale names a
       * review by its second and its diff).
       */
      dialectFacts: ReadonlyMap<string, DialectFacts[]>;
    }
  | { status: 'cancelled'; label: string }
  /** `auth`: this server's API answered 401, without a token (`required`) or to the one sent (`rejected`). */
  | { status: 'error'; label: string; message: string; auth?: 'required' | 'rejected' };

const NO_KEYS: PinnedKey[] = [];
const NO_DIALECT: DialectInputs = {};

/** `dialect`: ZeroClaw's HMAC key and the CodeWhale diff, when the user gave them (memory only). */
export function useLogSession(trust: PinnedKey[] = NO_KEYS, dialect: DialectInputs = NO_DIALECT) {
  const [session, setSession] = useState<Session>({ status: 'idle' });
  // The index figures of the open fleet page (null for any other log).
  const [fleetPage, setFleetPage] = useState<FleetPageInfo | null>(null);
  const worker = useRef<Worker | null>(null);
  const rows = useRef<RowStore>(new RowStore());
  // Bundle requests waiting for the log worker, which stays open after `done` for them.
  const pending = useRef(new Map<number, (a: BundleAnswer) => void>());
  const nextReq = useRef(0);

  const stop = useCallback(() => {
    worker.current?.terminate();
    worker.current = null;
    for (const resolve of pending.current.values()) resolve({ ok: false, message: 'the log was closed' });
    pending.current.clear();
  }, []);

  const open = useCallback(
    (sources: LogSource[], serverToken?: string) => {
      stop();
      rows.current = new RowStore();
      setFleetPage(null);
      const label = describeSources(sources);
      const w = new Worker(new URL('../../lib/workers/log-worker.ts', import.meta.url), { type: 'module' });
      worker.current = w;
      setSession({ status: 'running', label, progress: null, rows: 0 });
      w.onmessage = (e: MessageEvent<LogEvent>) => {
        if (worker.current !== w) return; // a stale session
        const m = e.data;
        if (m.type === 'rows') {
          rows.current.applyDelta(m.delta);
          setSession((s) => (s.status === 'running' ? { ...s, rows: rows.current.length } : s));
        } else if (m.type === 'progress') {
          setSession((s) => (s.status === 'running' ? { ...s, progress: m.progress } : s));
        } else if (m.type === 'done') {
          if (m.receipts.length !== rows.current.length) {
            setSession({
              status: 'error',
              label,
              message: `the report has ${m.receipts.length} receipts but ${rows.current.length} rows were read for the explorer: the rows and the report disagree`,
            });
            stop();
            return;
          }
          // The receipts arrive as columns; rebuilt a slice per task so the page never freezes.
          const receipts: ReportReceipt[] = new Array(m.receipts.length);
          let at = 0;
          const idAt = (i: number, file: string, line: number) => rows.current.reportId(i, file, line);
          const rebuild = () => {
            if (worker.current !== w) return; // another log was opened meanwhile
            const end = Math.min(m.receipts.length, at + REBUILD_SLICE);
            try {
              fromReceiptColumns(m.receipts, at, end, receipts, idAt);
            } catch (err) {
              setSession({ status: 'error', label, message: err instanceof Error ? err.message : String(err) });
              stop();
              return;
            }
            at = end;
            if (at < m.receipts.length) {
              setTimeout(rebuild, 0);
              return;
            }
            const report = { ...m.report, receipts };
            rows.current.applyReport(report);
            const dialectFacts = new Map<string, DialectFacts[]>();
            for (const f of m.dialectFacts) {
              const same = dialectFacts.get(f.id);
              if (same) same.push(f);
              else dialectFacts.set(f.id, [f]);
            }
            setSession({
              status: 'done',
              label,
              progress: m.progress,
              report,
              rows: rows.current.length,
              verifiedCheckpoints: m.verifiedCheckpoints,
              lineage: m.lineage,
              dialectFacts,
            });
          };
          rebuild();
        } else if (m.type === 'bundle') {
          pending.current.get(m.req)?.(m.answer);
          pending.current.delete(m.req);
        } else if (m.type === 'fleet') {
          setFleetPage(m.page);
        } else if (m.type === 'unauthorized') {
          const message = m.tokenSent
            ? "this server refused the API token (HTTP 401): it is not valid for this server's log. Enter the token again."
            : "this server's log needs an API token (HTTP 401). Enter the token you were given.";
          setSession({ status: 'error', label, message, auth: m.tokenSent ? 'rejected' : 'required' });
          stop();
        } else {
          setSession({ status: 'error', label, message: m.message });
          stop();
        }
      };
      w.onerror = (e) => {
        if (worker.current !== w) return; // a stale session
        // After `done` the worker only serves bundle requests: an error there must not replace the report.
        setSession((s) => (s.status === 'running' ? { status: 'error', label, message: e.message || 'the verification worker failed to start' } : s));
        stop();
      };
      // The checkpoints this browser verified before: their batches are never an unchecked tail (part 2 §12).
      const remembered = [...readCheckpointMemory().memory.values()].map((r) => ({ key: r.key, checkpointSeq: r.checkpointSeq, batchEndSeq: r.batchEndSeq }));
      w.postMessage({ type: 'open', sources, trust, dialect, remembered, ...(serverToken !== undefined ? { serverToken } : {}) });
    },
    [stop, trust, dialect],
  );

  const cancel = useCallback(() => {
    worker.current?.postMessage({ type: 'cancel' });
    stop();
    setSession((s) => (s.status === 'running' ? { status: 'cancelled', label: s.label } : s));
  }, [stop]);

  /** One receipt of the verified log again, with its checkpoint and proof (read from the sources the worker keeps). */
  const requestBundle = useCallback((query: BundleQuery): Promise<BundleAnswer> => {
    const w = worker.current;
    if (!w) return Promise.resolve({ ok: false, message: 'no log is open' });
    const req = nextReq.current++;
    return new Promise((resolve) => {
      pending.current.set(req, resolve);
      w.postMessage({ type: 'bundle', req, query });
    });
  }, []);

  useEffect(() => stop, [stop]);
  return { session, open, cancel, rows, requestBundle, fleetPage };
}
