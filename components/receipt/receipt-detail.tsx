'use client';
// A receipt of the open log, at a stable URL: the log's verdict for it with one
// line per check, then the receipt laid open from its bundle (read again from
// the source by the log worker): decision and guard evidence, parameters,
// hashes recomputed, the Merkle path to its checkpoint, signed and unsigned
// fields, the bytes, its place in the request tree, and ways to share it.
// ZeroClaw and CodeWhale receipts have their own page (dialect-receipt.tsx).
// Fields are rendered as text, never HTML.
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useMemo } from 'react';
import { buildDossier } from '../../lib/receipt/dossier';
import type { BundleQuery } from '../../lib/sources/record-host';
import { useLogOpener, useSession } from '../data/log-contexts';
import { useTrust } from '../data/trust-provider';
import { useViewSource } from '../data/use-view-source';
import { useReceiptBundle } from '../data/use-receipt-bundle';
import { formatTime } from '../explorer/format';
import { type RowStore, VERDICT_LABEL, rowVerdictOf } from '../../lib/query/row-store';
import { copiesOf, copyAddressFromParams, manySources, matchCopies, rowUrl } from '../../lib/query/receipt-address';
import { DecisionView, DossierView } from './dossier-view';
import { SHARE_SECTION_ID, SharePanel, sourceLinkOf } from './share-panel';
import { ReceiptBar } from './receipt-bar';
import { ReceiptCopies, UnresolvedCopy } from './receipt-copies';
import { ViewSourceGate } from './view-source-gate';
import { SafeText } from '../ui/safe-text';
import { type DialectEntry, DialectReceipt } from './dialect-receipt';
import { isOtherRuntime } from '../../lib/query/runtimes';
import type { DialectFacts } from '../../lib/workers/protocol';
import { type ReportReceipt, isIntactUnpinned } from '../../lib/verdict/report';
import { UnpinnedNotice } from '../trust/unpinned-notice';
import type { Problem } from '../../lib/verdict/problems';
import { reasonWords } from '../../lib/verdict/check-text';
import { EnvelopeClaims } from './envelope-claims';

/** The id of the page's checks heading, which the summary bar links to. */
export const CHECKS_ID = 'checks';

export const CHECK_LABELS: Record<string, string> = {
  parse: 'parsed strictly (no duplicate keys, lone surrogates or lossy numbers)',
  signature: 'signature over the canonical signed fields',
  receipt_id: 'content-addressed id recomputes (Gen B)',
  semantics: 'kind, boundary, outcome, decision and trust fit together (Gen B)',
  parameter_hash: 'parameter hash recomputes from the parameters',
  content_hash: 'the output its envelope carries hashes to the signed content_hash',
  delivery: "the kernel's delivery acknowledgement binds this receipt, its request and its result",
  inclusion: 'included in a verified checkpoint',
  signer_trusted: 'signed by a pinned key, inside its validity window',
  // Other runtimes' receipts (their families: lib/dialects).
  claims: 'every reply quoting it matches a tool result of its turn',
  schema: 'the schema its runtime writes',
  diff_fingerprint: 'its diff fingerprint matches the diff supplied',
  unresolved_risk: 'no unresolved review risk',
  checks_run: 'every attached check passed',
  review_gate: "CodeWhale's --check-receipt outcome",
  reasoning_custody: 'raw reasoning not exported',
  tool_lineage: 'every tool call has its result',
  event_sequence: "the turn's events without a gap",
  approvals: 'no more approval decisions than requests',
  duration: 'duration matches its start and end',
  claim_ceiling: 'claims no more than a local receipt',
};

/** The `signature` line of other runtimes' receipts, which is not a Chio signature. */
/** The `parse` and `signature` lines of other runtimes' receipts, which are not a Chio parse or signature. */
const DIALECT_LABELS: Record<string, Record<string, string>> = {
  zeroclaw: {
    parse: 'the receipt string has the strict form (prefix, decimal seconds, 43-character canonical tag)',
    signature: 'HMAC-SHA256 tag recomputes with the key',
  },
  'codewhale-review': { parse: 'read as CodeWhale reads it (every field present, of its type)', signature: 'signature (there is none)' },
  'codewhale-turn': { parse: "every field of the draft's example present, of its type", signature: 'signature (there is none)' },
};

export function Checklist({ checks, details, type }: { checks: Record<string, string>; details?: Record<string, string>; type?: string }) {
  return (
    <ul className="checklist" data-testid="receipt-checks">
      {Object.entries(checks).map(([name, status]) => (
        <li key={name} className={status} data-check={name} data-status={status}>
          <strong>{status}</strong> {(type !== undefined ? DIALECT_LABELS[type]?.[name] : undefined) ?? CHECK_LABELS[name] ?? name}
          {details?.[name] ? (
            <span className="muted">
              {' '}
              — <SafeText text={detailText(details[name])} max={300} />
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** A detail that is a terse reason (a code the contract names) reads as words, with the reason after them. */
function detailText(detail: string): string {
  const words = reasonWords(detail);
  return detail !== words ? `${words} (${detail})` : detail;
}

/** `view`: the `?source=` of the view this page shows, which its links keep. */
function RelatedLinks({ store, rows, title, testId, view }: { store: RowStore; rows: number[]; title: string; testId: string; view: string | null }) {
  if (rows.length === 0) return null;
  return (
    <>
      <h3>{title}</h3>
      <ul data-testid={testId}>
        {rows.map((r) => {
          const id = store.str('id', r)!;
          return (
            <li key={r}>
              <Link href={rowUrl(store, r, view)}>
                <code>
                  <SafeText text={id} max={80} expandable={false} />
                </code>
              </Link>{' '}
              {store.str('type', r)} receipt, <SafeText text={store.str('operationKind', r) ?? store.str('toolName', r) ?? ''} max={80} />{' '}
              {store.str('decision', r) ?? ''} ({VERDICT_LABEL[store.verdictOf(r)]})
            </li>
          );
        })}
      </ul>
    </>
  );
}

/**
 * Every receipt of another runtime with this id, in log order, each with its facts: those read at
 * the same file and line, the first not yet taken (the audit sends facts in log order, as the
 * report lists receipts, so receipts that share an id and a line still pair in order).
 */
function dialectEntries(receipts: readonly ReportReceipt[], id: string, store: RowStore, facts: readonly DialectFacts[]): DialectEntry[] {
  const { rowAtPos } = store.positions();
  const out: DialectEntry[] = [];
  const taken = new Set<DialectFacts>();
  receipts.forEach((r, k) => {
    if (r.id !== id || !isOtherRuntime(r.type)) return;
    const f = facts.find((x) => !taken.has(x) && x.file === r.file && x.line === r.line);
    if (f) taken.add(f);
    const row = rowAtPos[k];
    out.push({ receipt: r, facts: f && f.type === r.type ? f.facts : [], time: row === undefined ? NaN : store.time[row]! });
  });
  return out;
}

/** The top of a receipt's page: the way back to the explorer and the receipt's id. */
export function ReceiptHeading({ id }: { id: string }) {
  return (
    <>
      <p>
        <Link href="/receipts">← receipts</Link>
      </p>
      <h1>
        <code>
          <SafeText text={id} max={200} />
        </code>
      </h1>
    </>
  );
}

/**
 * The receipt page. Its log: the tab's, or the one its link names (`?source=`, for this view
 * only, and from another origin only once the user agrees: use-view-source.ts). Its receipt: the
 * copy the link names by file and line (and source): one id can name several receipts of a log
 * (`duplicate_receipt_id`), and a page never picks one of them for the user.
 */
export function ReceiptDetail({ id }: { id: string }) {
  const { session, rows } = useSession();
  const { sources, openRole } = useLogOpener();
  const { trust } = useTrust();
  const params = useSearchParams();
  const at = useMemo(() => copyAddressFromParams(new URLSearchParams(params.toString())), [params]);
  const { view, ready } = useViewSource(params.get('source'));
  const viewParam = view.status === 'view' ? view.param : null;
  const report = ready && session.status === 'done' ? session.report : null;
  // The copies of this id in the open log (log order), and the one the address names (if exactly one does).
  const found = useMemo(() => {
    const store = rows.current;
    if (!report || !store) return null;
    const copies = copiesOf(store, id);
    const matching = matchCopies(store, copies, at);
    const row = matching.length === 1 ? matching[0]! : undefined;
    const entry = row === undefined ? undefined : report.receipts[store.positions().posOfRow[row]!];
    return { store, copies, matching, row, entry: entry?.id === id ? entry : undefined };
  }, [report, rows, id, at]);
  const entry = found?.entry;
  // Other runtimes' receipts are not read again from their source: the audit's facts are their page.
  const bundleAt = useMemo((): BundleQuery | null => {
    if (!entry || found?.row === undefined || isOtherRuntime(entry.type)) return null;
    const source = found.store.str('source', found.row);
    return { id, file: entry.file, line: entry.line, ...(source !== undefined ? { source } : {}) };
  }, [entry, found, id]);
  const answer = useReceiptBundle(bundleAt);
  const dossier = useMemo(() => (answer?.ok ? buildDossier(answer.bundle) : null), [answer]);

  if (view.status !== 'tab' && view.status !== 'view') return <ViewSourceGate id={id} view={view} at={at} />;
  if (!ready || session.status !== 'done') {
    return (
      <p data-testid="receipt-verdict" data-verdict="pending">
        {ready && session.status === 'error' ? (
          <>
            The log could not be verified: <SafeText text={session.message} max={400} />
          </>
        ) : (
          `Verifying the log… (${ready && session.status === 'running' ? session.rows : 0} receipts so far)`
        )}
      </p>
    );
  }
  if (!found || found.copies.length === 0) {
    return (
      <p role="alert" data-testid="receipt-verdict" data-verdict="missing">
        The open log (<SafeText text={session.label} max={120} />) has no receipt with id{' '}
        <code>
          <SafeText text={id} max={200} />
        </code>
        . <Link href="/receipts">All receipts</Link>
      </p>
    );
  }
  const { store, copies, row } = found;
  // Other runtimes' receipts can share an id (CodeWhale names a review by its second and its diff): their page shows each.
  if (copies.every((r) => isOtherRuntime(store.str('type', r)))) {
    return (
      <DialectReceipt
        id={id}
        entries={dialectEntries(session.report.receipts, id, store, session.dialectFacts.get(id) ?? [])}
        problems={session.report.problems.filter((p) => p.receipt_id === id)}
        label={session.label}
      />
    );
  }
  if (row === undefined || !entry) return <UnresolvedCopy id={id} store={store} copies={copies} at={at} view={viewParam} label={session.label} />;
  const mine = (p: Problem) => p.receipt_id === id && (p.file === undefined || (p.file === entry.file && (p.line === undefined || p.line === entry.line)));
  const problems = session.report.problems.filter(mine);
  if (isOtherRuntime(entry.type))
    return (
      <DialectReceipt
        id={id}
        entries={dialectEntries(session.report.receipts, id, store, session.dialectFacts.get(id) ?? [])}
        problems={problems}
        label={session.label}
      />
    );
  const related = store.related(row);
  const d = dossier?.ok ? dossier.dossier : null;
  // Another copy of this id read at the same file and line, in another source: a problem names no source.
  const sharedPlace = copies.some((r) => r !== row && store.line[r] === entry.line && store.str('file', r) === entry.file);
  // Its source, named when the log has several (two packages both have receipts.ndjson).
  const copySource = manySources(store) ? store.str('source', row) : undefined;
  return (
    <article className="receipt">
      <ReceiptHeading id={id} />
      <ReceiptBar
        state={rowVerdictOf(entry)}
        checks={entry.checks}
        checksId={CHECKS_ID}
        sourceLink={answer?.ok ? sourceLinkOf(id, { file: entry.file, line: entry.line }, store.str('source', row) ?? null, sources) : null}
        shareId={answer?.ok ? SHARE_SECTION_ID : null}
      />
      <p
        data-testid="receipt-verdict"
        data-verdict={entry.verdict}
        data-state={rowVerdictOf(entry)}
        className={`banner ${entry.verdict === 'verified' ? 'ok' : isIntactUnpinned(entry) ? 'unpinned' : 'bad'}`}
      >
        <strong>{VERDICT_LABEL[rowVerdictOf(entry)]}</strong> — {entry.type} receipt{entry.generation ? ` (Gen ${entry.generation})` : ''},{' '}
        <SafeText text={`${entry.file}:${entry.line}`} max={120} />
        {copySource !== undefined && copySource !== entry.file ? (
          <>
            {' '}
            in <SafeText text={copySource} max={160} />
          </>
        ) : null}
        , at {formatTime(store.time[row]!)} UTC. Checked in this browser, in <SafeText text={session.label} max={120} />.
      </p>
      {isIntactUnpinned(entry) && <UnpinnedNotice keys={[store.str('kernelKey', row) ?? '']} count={1} what="receipt" />}
      {view.status === 'view' && openRole === 'view' && (
        <p className="muted" data-testid="view-note">
          The link opened this log for this page only: this tab&apos;s own log is unchanged, and the other pages show it (
          <Link href="/receipts">all receipts of this tab&apos;s log</Link>).
        </p>
      )}
      {copies.length > 1 && <ReceiptCopies id={id} store={store} copies={copies} current={row} view={viewParam} />}
      {d && <DecisionView d={d} />}
      <h2 id={CHECKS_ID}>Checks</h2>
      <Checklist checks={entry.checks} {...(entry.details ? { details: entry.details } : {})} />
      <EnvelopeClaims receipt={entry} />
      <p className="muted" data-testid="receipt-trust">
        {trust.length === 0 ? (
          <>
            No kernel key is pinned in this browser, so signer_trusted is skipped and the receipt is not verified: the signature shows it is intact, not who
            signed it (<Link href="/trust">pin keys</Link>).
          </>
        ) : (
          <>
            Trusted in this browser (pinned on <Link href="/trust">/trust</Link>):{' '}
            {trust.map((t, i) => (
              <code key={i}>
                {t.label ? (
                  <>
                    <SafeText text={t.label} max={80} />{' '}
                  </>
                ) : (
                  ''
                )}
                <SafeText text={t.key} max={140} />{' '}
              </code>
            ))}
          </>
        )}
      </p>
      {problems.length > 0 && (
        <>
          <h2>Problems</h2>
          {sharedPlace && (
            <p className="muted">
              Another copy of this id was read at the same file and line in another source, and a problem names no source: some of these may concern that copy.
            </p>
          )}
          <ul data-testid="receipt-problems">
            {problems.map((p, i) => (
              <li key={i} data-code={p.code}>
                <code>{p.code}</code> <SafeText text={p.message} max={400} />
              </li>
            ))}
          </ul>
        </>
      )}
      {(related.parents.length > 0 || related.children.length > 0) && (
        <section>
          <h2>Request tree</h2>
          <RelatedLinks store={store} rows={related.parents} title="Parent" testId="receipt-parents" view={viewParam} />
          <RelatedLinks store={store} rows={related.children} title={`Children (${related.children.length})`} testId="receipt-children" view={viewParam} />
        </section>
      )}
      {answer === null && <p className="muted">Reading the receipt again from its source…</p>}
      {answer && !answer.ok && (
        <p role="alert" className="banner bad">
          The receipt could not be read again from its source: <SafeText text={answer.message} max={400} />
        </p>
      )}
      {dossier && !dossier.ok && (
        <p role="alert" className="banner bad">
          The receipt cannot be laid open: <SafeText text={dossier.message} max={400} />
        </p>
      )}
      {answer?.ok && answer.note && (
        <p className="muted">
          Note: <SafeText text={answer.note} max={400} />.
        </p>
      )}
      {d && <DossierView d={d} />}
      {answer?.ok && (
        <SharePanel
          id={id}
          at={{ file: entry.file, line: entry.line }}
          copySource={store.str('source', row) ?? null}
          bundle={answer.bundle}
          sources={sources}
          kernelKey={store.str('kernelKey', row) ?? null}
        />
      )}
    </article>
  );
}
