'use client';
// The fleet view (issue 9): a server with CLICKHOUSE_URL searches receipts of many kernels. The
// index (ClickHouse) finds them, counts them and sums them; this browser verifies every receipt a
// page shows, with the proofs and checkpoints the page carries, exactly as for files. So the view
// keeps two kinds of numbers apart: index figures (labelled so, never called verified) and the
// page's verdicts. The URL's query string is the API's (/v1/receipts/query), filters and cursor.
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { MAX_LIMIT, RECEIPT_OUTCOMES, type ReceiptQuery, parseReceiptQuery, toFilterKey, toSearchParams } from '../../lib/query/receipt-query';
import { VERDICT_LABEL } from '../../lib/query/row-store';
import { UnpinnedNotice } from '../trust/unpinned-notice';
import { useFleetIndex } from '../data/fleet-queries';
import { useLogOpener, useSession } from '../data/log-contexts';
import { useTrust } from '../data/trust-provider';
import { formatTime } from '../explorer/format';
import { VerifyProgress } from '../loader/verify-progress';
import { SafeText } from '../ui/safe-text';

const num = (s: string | number | bigint) => BigInt(s).toLocaleString('en-US');
const short = (key: string) => `${key.slice(0, 12)}…${key.slice(-4)}`;

/** The page's API query from the address bar: 200 a page unless the URL says otherwise. */
function pageQuery(params: URLSearchParams): ReturnType<typeof parseReceiptQuery> {
  const p = new URLSearchParams(params);
  if (!p.has('limit')) p.set('limit', String(MAX_LIMIT));
  return parseReceiptQuery(p);
}

type FormState = Record<
  'kernelKey' | 'toolServer' | 'toolName' | 'outcome' | 'capabilityId' | 'agentSubject' | 'since' | 'until' | 'minCost' | 'maxCost',
  string
>;

const toInput = (q: ReceiptQuery): FormState => ({
  kernelKey: q.kernelKey ?? '',
  toolServer: q.toolServer ?? '',
  toolName: q.toolName ?? '',
  outcome: q.outcome ?? '',
  capabilityId: q.capabilityId ?? '',
  agentSubject: q.agentSubject ?? '',
  since: q.since !== undefined ? new Date(Number(q.since) * 1000).toISOString().slice(0, 19) : '',
  until: q.until !== undefined ? new Date(Number(q.until) * 1000).toISOString().slice(0, 19) : '',
  minCost: q.minCost?.toString() ?? '',
  maxCost: q.maxCost?.toString() ?? '',
});

/** The form as API parameters (times are UTC); the server's parser judges them. */
function fromInput(f: FormState): URLSearchParams {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) {
    if (v.trim() === '') continue;
    if (k === 'since' || k === 'until') {
      const ms = Date.parse(`${v}Z`);
      p.set(k, Number.isFinite(ms) ? String(Math.floor(ms / 1000)) : v);
    } else p.set(k, v.trim());
  }
  return p;
}

export function FleetView() {
  const { session, rows, fleetPage, cancel } = useSession();
  const { fleet, ensureOpen } = useLogOpener();
  const { trust } = useTrust();
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const parsed = useMemo(() => pageQuery(new URLSearchParams(params.toString())), [params]);
  const query = parsed.ok ? parsed.query : null;
  const apiQuery = query ? toSearchParams(query).toString() : null;
  const filterKey = query ? toFilterKey(query) : '';
  const [form, setForm] = useState<FormState>(() => toInput(query ?? { limit: MAX_LIMIT }));
  // Cursors of the pages before this one, for "Previous" (the index pages forward only).
  const [trail, setTrail] = useState<string[]>([]);

  useEffect(() => {
    if (fleet && apiQuery !== null) ensureOpen([{ kind: 'fleet', query: apiQuery }]);
  }, [fleet, apiQuery, ensureOpen]);
  // The form follows the URL's filters when they change (filterKey), not when only the cursor or limit
  // does: paging must not throw away what the user is typing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a change of filters only (above), not of `query`'s cursor or limit
  useEffect(() => setForm(toInput(query ?? { limit: MAX_LIMIT })), [filterKey]);

  const { kernels, summary } = useFleetIndex(fleet, query !== null ? filterKey : null);

  if (!fleet) {
    return (
      <p role="status">
        This server serves one receipt store, not a fleet. A fleet is served when the server starts with <code>CLICKHOUSE_URL</code> set to the node{' '}
        <code>npm run fleet:up</code> printed. <Link href="/">Open the overview</Link>
      </p>
    );
  }

  const go = (p: URLSearchParams) => router.push(`${pathname}${p.size ? `?${p}` : ''}`);
  const search = (e: FormEvent) => {
    e.preventDefault();
    setTrail([]);
    go(fromInput(form));
  };
  const pinned = new Map(trust.map((t) => [t.key, t.label ?? 'pinned']));
  const field = (name: keyof FormState, label: string, extra: Record<string, string> = {}) => (
    <label>
      {label}
      <input name={name} value={form[name]} onChange={(e) => setForm({ ...form, [name]: e.target.value })} data-testid={`fleet-${name}`} {...extra} />
    </label>
  );
  const withCursor = (cursor: string | null) => {
    const p = new URLSearchParams(filterKey);
    if (query && query.limit !== MAX_LIMIT) p.set('limit', String(query.limit));
    if (cursor !== null) p.set('cursor', cursor);
    return p;
  };
  const done = session.status === 'done' ? session : null;
  const verdicts = { verified: 0, failed: 0, unverified: 0, unpinned: 0, pending: 0 };
  const store = rows.current;
  const pageRows: number[] = [];
  if (done && store) {
    for (let i = 0; i < store.length; i++) {
      verdicts[store.verdictOf(i)]++;
      pageRows.push(i);
    }
  }

  return (
    <>
      <section aria-labelledby="fleet-kernels">
        <h2 id="fleet-kernels">Kernels</h2>
        <p className="muted" data-testid="fleet-index-note">
          Index figures: counted by the fleet index (ClickHouse), not verified. Only the receipts a page shows below are verified, in this browser.
        </p>
        {kernels.isError && (
          <p role="alert">
            The fleet index did not answer: <SafeText text={(kernels.error as Error).message} max={300} />
          </p>
        )}
        {kernels.data && (
          <div className="table-scroll">
            <table className="grid" data-testid="fleet-kernel-table">
              <thead>
                <tr>
                  <th>Kernel key</th>
                  <th>Key pinned</th>
                  <th>Tool receipts (index)</th>
                  <th>Child receipts (index)</th>
                  <th>Checkpoints (index)</th>
                  <th>Checkpoint coverage (index)</th>
                  <th>Denied (index)</th>
                  <th>From – to</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {kernels.data.kernels.map((k) => {
                  const tool = BigInt(k.toolReceipts);
                  const covered = BigInt(k.checkpointedReceipts);
                  const pct = tool > 0n ? Number((covered * 1000n) / tool) / 10 : 0;
                  return (
                    <tr key={k.kernelKey} data-testid="fleet-kernel-row" data-kernel={k.kernelKey}>
                      <td className="fleet-mono" title={k.kernelKey}>
                        {short(k.kernelKey)}
                      </td>
                      <td data-testid="fleet-kernel-pinned">
                        {pinned.has(k.kernelKey) ? (
                          <>
                            pinned (<SafeText text={pinned.get(k.kernelKey)!} max={40} />)
                          </>
                        ) : (
                          <span className="verdict unverified">not pinned</span>
                        )}
                      </td>
                      <td>{num(k.toolReceipts)}</td>
                      <td>{num(k.childReceipts)}</td>
                      <td>{num(k.checkpoints)}</td>
                      <td data-testid="fleet-kernel-coverage">
                        {num(k.checkpointedReceipts)} of {num(k.toolReceipts)} ({pct}%), {num(k.inclusionProofs)} proofs
                      </td>
                      <td>{num(k.denied)}</td>
                      <td>{k.firstTimestamp !== '0' ? `${formatTime(Number(k.firstTimestamp))} – ${formatTime(Number(k.lastTimestamp))}` : '–'}</td>
                      <td>
                        <button
                          type="button"
                          onClick={() => {
                            setTrail([]);
                            go(new URLSearchParams({ kernelKey: k.kernelKey }));
                          }}
                        >
                          Search this kernel
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {trust.length === 0 && (
          <p className="muted">
            No kernel key is pinned: receipts verify their signatures, but none is trusted. <Link href="/trust">Pin keys</Link>
          </p>
        )}
      </section>

      <section aria-labelledby="fleet-search">
        <h2 id="fleet-search">Search the fleet</h2>
        <form className="fleet-form" onSubmit={search} data-testid="fleet-form">
          <label>
            Kernel
            <select name="kernelKey" value={form.kernelKey} onChange={(e) => setForm({ ...form, kernelKey: e.target.value })} data-testid="fleet-kernelKey">
              <option value="">All kernels</option>
              {kernels.data?.kernels.map((k) => (
                <option key={k.kernelKey} value={k.kernelKey}>
                  {short(k.kernelKey)}
                </option>
              ))}
            </select>
          </label>
          {field('toolServer', 'Tool server')}
          {field('toolName', 'Tool')}
          <label>
            Outcome
            <select name="outcome" value={form.outcome} onChange={(e) => setForm({ ...form, outcome: e.target.value })} data-testid="fleet-outcome">
              <option value="">Any</option>
              {RECEIPT_OUTCOMES.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </label>
          {field('capabilityId', 'Capability')}
          {field('agentSubject', 'Agent (subject key)')}
          {field('since', 'Since (UTC)', { type: 'datetime-local', step: '1' })}
          {field('until', 'Until (UTC)', { type: 'datetime-local', step: '1' })}
          {field('minCost', 'Min cost (minor units)', { inputMode: 'numeric' })}
          {field('maxCost', 'Max cost (minor units)', { inputMode: 'numeric' })}
          <button type="submit" data-testid="fleet-search-button">
            Search
          </button>
          <button
            type="button"
            onClick={() => {
              setTrail([]);
              go(new URLSearchParams());
            }}
          >
            Clear
          </button>
        </form>
        {!parsed.ok && (
          <div role="alert" data-testid="fleet-query-issues">
            This search cannot be run:
            <ul>
              {parsed.issues.map((i, n) => (
                <li key={n}>
                  <code>
                    <SafeText text={i.param} max={64} />
                  </code>
                  : <SafeText text={i.message} max={200} />
                </li>
              ))}
            </ul>
          </div>
        )}
        {summary.data && (
          <p className="muted" data-testid="fleet-summary">
            Index figures for this search (not verified): {num(Object.values(summary.data.byKernel).reduce((a, n) => a + BigInt(n), 0n))} receipts in{' '}
            {Object.keys(summary.data.byKernel).length} kernel(s); by outcome{' '}
            {Object.entries(summary.data.byOutcome)
              .map(([o, n]) => `${o} ${num(n)}`)
              .join(', ') || 'none'}
            {Object.keys(summary.data.costCharged).length > 0 && (
              <>
                ; cost charged{' '}
                {Object.entries(summary.data.costCharged)
                  .map(
                    ([c, v]) =>
                      `${num(v.sum)} ${c || '(no currency)'} minor units over ${num(v.receipts)} receipts${v.notSummed !== '0' ? ` (${num(v.notSummed)} too large to sum)` : ''}`,
                  )
                  .join(', ')}
              </>
            )}
            .
          </p>
        )}
      </section>

      <section
        aria-labelledby="fleet-page"
        data-testid="fleet-page"
        data-done={String(done !== null)}
        data-verified={verdicts.verified}
        data-failed={verdicts.failed}
        data-receipts={fleetPage?.receipts ?? ''}
      >
        <h2 id="fleet-page">This page{trail.length > 0 ? ` (page ${trail.length + 1})` : ''}</h2>
        {session.status === 'running' && <VerifyProgress label={session.label} progress={session.progress} rows={session.rows} onCancel={cancel} />}
        {session.status === 'error' && (
          <p role="alert">
            Could not verify this page: <SafeText text={session.message} max={400} />
          </p>
        )}
        {fleetPage && (
          <p data-testid="fleet-page-figures">
            {num(fleetPage.receipts)} receipts on this page, from {fleetPage.kernels.filter((k) => k.kernelKey).length} kernel(s), of{' '}
            <strong>{num(fleetPage.totalCount)}</strong> matching in the index <span className="muted">(index figure, not verified)</span>.
          </p>
        )}
        {done && (
          <p
            className={verdicts.failed > 0 ? 'banner bad' : verdicts.unpinned > 0 ? 'banner unpinned' : 'banner ok'}
            data-testid="fleet-page-verdicts"
            data-unpinned={verdicts.unpinned}
          >
            Checked in this browser: {verdicts.verified} verified, {verdicts.unpinned > 0 ? `${verdicts.unpinned} intact, signer not pinned, ` : ''}
            {verdicts.failed} failed, {verdicts.unverified} unverified of the {store?.length ?? 0} receipts on this page, with {done.report.checkpoints.length}{' '}
            checkpoints. <Link href="/">Overview of this page</Link> · <Link href="/receipts">Explore it</Link>
          </p>
        )}
        {done && verdicts.unpinned > 0 && <UnpinnedNotice keys={done.report.keys.map((k) => k.key)} count={verdicts.unpinned} />}
        <p>
          <button
            type="button"
            disabled={trail.length === 0 && !query?.cursor}
            onClick={() => {
              const prev = trail.slice(0, -1);
              const cursor = trail[trail.length - 1] ?? null;
              setTrail(prev);
              go(withCursor(cursor === '' ? null : cursor));
            }}
            data-testid="fleet-prev"
          >
            ← Previous page
          </button>{' '}
          <button
            type="button"
            disabled={!fleetPage?.nextCursor}
            onClick={() => {
              setTrail([...trail, query?.cursor?.toString() ?? '']);
              go(withCursor(fleetPage!.nextCursor));
            }}
            data-testid="fleet-next"
          >
            Next page →
          </button>
        </p>
        {done && store && (
          <div className="table-scroll">
            <table className="grid" data-testid="fleet-receipts">
              <thead>
                <tr>
                  <th>Verdict</th>
                  <th>Receipt</th>
                  <th>Kernel</th>
                  <th>Time</th>
                  <th>Tool</th>
                  <th>Outcome</th>
                </tr>
              </thead>
              <tbody>
                {pageRows.map((i) => {
                  const id = store.str('id', i) ?? '';
                  const v = store.verdictOf(i);
                  const kernel = store.str('kernelKey', i) ?? '';
                  return (
                    <tr key={i} data-testid="fleet-receipt-row" data-verdict={v}>
                      <td className={`verdict ${v}`}>{VERDICT_LABEL[v]}</td>
                      <td className="fleet-mono">
                        <Link href={`/receipts/${encodeURIComponent(id)}`} prefetch={false}>
                          <SafeText text={id} max={60} />
                        </Link>
                      </td>
                      <td className="fleet-mono" title={kernel}>
                        {kernel ? short(kernel) : '–'}
                      </td>
                      <td>{Number.isFinite(store.time[i]!) && store.time[i]! > 0 ? formatTime(store.time[i]!) : '–'}</td>
                      <td>
                        <SafeText text={`${store.str('toolServer', i) ?? ''} / ${store.str('toolName', i) ?? ''}`} max={80} />
                      </td>
                      <td className={`decision ${store.str('decision', i) ?? ''}`}>{store.str('decision', i) ?? '–'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
