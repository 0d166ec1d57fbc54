'use client';
// The page's handle on a verification session: starts the log worker (which
// reads the sources and runs the verify workers), and exposes progress, the
// streamed receipt rows and the final report. The main thread never verifies.
// It talks to the log worker through lib/workers/worker-client.ts: the session's
// messages arrive as events, a receipt bundle is a request (its `req` the id).
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  type DialectFacts,
  type DialectInputs,
  type FleetPageInfo,
  type LogEvent,
  type LogRequest,
  type LogSource,
  type Progress,
  describeSources,
} from '../../lib/workers/protocol';
import { WorkerClient, WorkerClientError, type WorkerLike, isAborted } from '../../lib/workers/worker-client';
import { readCheckpointMemory } from './use-checkpoint-memory';
import type { PinnedKey } from '../../lib/trust/trust-store';
import { RowStore } from '../../lib/query/row-store';
import type { ReportReceipt, VerificationReport } from '../../lib/verdict/report';
import { fromReceiptColumns } from '../../lib/verify/receipt-columns';
import type { BundleAnswer, BundleQuery } from '../../lib/sources/record-host';
import type { VerifiedCheckpoint } from '../../lib/trust/verified-checkpoint';
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

type LogClient = WorkerClient<LogRequest, LogEvent>;

/** The bundler sees `new Worker(new URL(…))` here and builds the log worker as its own script. */
function spawnLogWorker(): WorkerLike<LogRequest, LogEvent> {
  return new Worker(new URL('../../lib/workers/log-worker.ts', import.meta.url), { type: 'module' });
}

/** `dialect`: ZeroClaw's HMAC key and the CodeWhale diff, when the user gave them (memory only). */
export function useLogSession(trust: PinnedKey[] = NO_KEYS, dialect: DialectInputs = NO_DIALECT) {
  const [session, setSession] = useState<Session>({ status: 'idle' });
  // The index figures of the open fleet page (null for any other log).
  const [fleetPage, setFleetPage] = useState<FleetPageInfo | null>(null);
  // The open log's worker; it stays open after `done` for bundle requests. Closing it fails them.
  const client = useRef<LogClient | null>(null);
  const rows = useRef<RowStore>(new RowStore());
  // Which load is open (a new number for each): the dataset part of query keys (query-keys.ts).
  const [load, setLoad] = useState(0);

  const stop = useCallback(() => {
    client.current?.close();
    client.current = null;
  }, []);

  const open = useCallback(
    (sources: LogSource[], serverToken?: string) => {
      stop();
      rows.current = new RowStore();
      setFleetPage(null);
      const label = describeSources(sources);
      // Once closed (another log opened, or cancelled), the client delivers nothing more of this session.
      const onEvent = (m: LogEvent) => {
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
            if (client.current !== c) return; // another log was opened meanwhile
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
        } else if (m.type === 'fleet') {
          setFleetPage(m.page);
        } else if (m.type === 'unauthorized') {
          const message = m.tokenSent
            ? "this server refused the API token (HTTP 401): it is not valid for this server's log. Enter the token again."
            : "this server's log needs an API token (HTTP 401). Enter the token you were given.";
          setSession({ status: 'error', label, message, auth: m.tokenSent ? 'rejected' : 'required' });
          stop();
        } else if (m.type === 'error') {
          setSession({ status: 'error', label, message: m.message });
          stop();
        }
      };
      const c: LogClient = new WorkerClient(spawnLogWorker(), {
        name: 'the log worker',
        idOf: (m) => (m.type === 'bundle' ? m.req : undefined),
        onEvent,
        onCrash: (_, detail) => {
          // After `done` the worker only serves bundle requests: an error there must not replace the report.
          setSession((s) => (s.status === 'running' ? { status: 'error', label, message: detail || 'the verification worker failed to start' } : s));
          stop();
        },
      });
      client.current = c;
      setLoad((n) => n + 1);
      setSession({ status: 'running', label, progress: null, rows: 0 });
      // The checkpoints this browser verified before: their batches are never an unchecked tail (part 2 §12).
      const remembered = [...readCheckpointMemory().memory.values()].map((r) => ({ key: r.key, checkpointSeq: r.checkpointSeq, batchEndSeq: r.batchEndSeq }));
      c.post({ type: 'open', sources, trust, dialect, remembered, ...(serverToken !== undefined ? { serverToken } : {}) });
    },
    [stop, trust, dialect],
  );

  const cancel = useCallback(() => {
    client.current?.post({ type: 'cancel' });
    stop();
    setSession((s) => (s.status === 'running' ? { status: 'cancelled', label: s.label } : s));
  }, [stop]);

  /**
   * One receipt of the verified log again, with its checkpoint and proof (read from the sources the
   * worker keeps). Rejects only when `signal` aborts it; any other failure is an answer saying why.
   */
  const requestBundle = useCallback(async (query: BundleQuery, signal?: AbortSignal): Promise<BundleAnswer> => {
    const c = client.current;
    if (!c) return { ok: false, message: 'no log is open' };
    try {
      const m = await c.request((req) => ({ type: 'bundle', req, query }), signal ? { signal } : {});
      return m.type === 'bundle' ? m.answer : { ok: false, message: 'the log worker answered something else' };
    } catch (e) {
      if (isAborted(e)) throw e;
      return { ok: false, message: e instanceof WorkerClientError && e.reason === 'closed' ? 'the log was closed' : String((e as Error)?.message ?? e) };
    }
  }, []);

  useEffect(() => stop, [stop]);
  return { session, open, cancel, rows, requestBundle, fleetPage, load };
}
