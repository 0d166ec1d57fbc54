'use client';
// What the page verified: verdicts, checkpoints on the log's timeline, per-check
// totals (never one green tick; per runtime when the log mixes Chio receipts
// with ZeroClaw or CodeWhale ones), signing keys, problems (linked to what
// they concern) and budgets. Presentational.
import Link from 'next/link';
import { useMemo } from 'react';
import { PACKAGE_CHECK_ORDER, type PackageCheckName, type VerificationReport, checkpointState, isIntactUnpinned, logState } from '../../lib/verdict/report';
import { DEMO_KERNEL_KEY } from '../../lib/trust/known-keys';
import { type CheckTotal, checkTotals, familyTotals } from '../../lib/verify/check-totals';
import { reasonWords } from '../../lib/verdict/check-text';
import { explorerUrl } from '../../lib/query/explorer-filter';
import { buildCoverage } from '../../lib/overview/checkpoint-coverage';
import { ProblemLinker, groupProblems } from '../../lib/overview/problem-groups';
import { CheckpointTimeline } from './checkpoint-timeline';
import { ProblemList } from './problem-list';
import { SafeText } from '../ui/safe-text';
import { UnpinnedNotice } from '../trust/unpinned-notice';
import { type HeadlineTone, logHeadline } from '../../lib/overview/headline';

const BANNER_CLASS: Record<HeadlineTone, string> = { ok: 'ok', partial: 'warn', unpinned: 'unpinned', failed: 'bad', empty: 'warn' };

/** What each receipt family (RECEIPT_FAMILIES) can prove, as the page says it. */
const FAMILY_NOTES: Record<string, string> = {
  Chio: 'Ed25519 signatures by the kernel, inclusion in signed checkpoints.',
  ZeroClaw: "HMAC tags, checkable only with the runtime's ephemeral key (enter it under Other runtimes); without it the tag check is skipped, never passed.",
  'CodeWhale review': 'Unsigned: integrity against the diff you supply (under Other runtimes), not authenticity.',
  'CodeWhale turn': 'Unsigned draft format: internal consistency, not authenticity.',
};

function CheckTable({ totals }: { totals: CheckTotal[] }) {
  return (
    <table className="grid">
      <thead>
        <tr>
          <th scope="col">check</th>
          <th scope="col">pass</th>
          <th scope="col">fail</th>
          <th scope="col">skipped (why)</th>
        </tr>
      </thead>
      <tbody>
        {totals.map((t) => (
          <tr key={t.name}>
            <th scope="row">{t.name}</th>
            <td className={t.pass ? 'good' : ''}>{t.pass}</td>
            <td className={t.fail ? 'bad' : ''}>{t.fail}</td>
            {/* Skip reasons of other runtimes' checks can quote the log (a tool name, a receipt): text, revealed. */}
            <td>
              {t.skipped.size === 0
                ? '–'
                : [...t.skipped].map(([why, n], i) => (
                    <span key={i}>
                      {i > 0 ? '; ' : ''}
                      {n} (<SafeText text={reasonWords(why)} max={300} />)
                    </span>
                  ))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * `forked`: the load contradicts a checkpoint this browser remembers (checkpoint-memory.ts), so
 * its status is not ok even when every check in it passed.
 */
export function ReportSummary({
  report,
  label,
  bytes,
  ms,
  pinned,
  forked = false,
}: {
  report: VerificationReport;
  label: string;
  bytes: number;
  ms: number;
  pinned: Set<string>;
  forked?: boolean;
}) {
  const s = report.summary;
  const ok = report.ok && !forked;
  // Part 2 §11: nothing failed, but no key is pinned, so nothing is verified: its own state.
  const state = forked ? 'failed' : logState(report);
  const headline = useMemo(() => logHeadline(report, { forked }), [report, forked]);
  const unpinned = useMemo(() => report.receipts.filter(isIntactUnpinned).length, [report]);
  const unpinnedKeys = useMemo(() => report.keys.map((k) => k.key).filter((k) => !pinned.has(k)), [report, pinned]);
  const cpFailed = report.checkpoints.filter((c) => c.verdict === 'failed').length;
  const cpUnpinned = report.checkpoints.filter((c) => checkpointState(c) === 'unpinned').length;
  const coverage = useMemo(() => buildCoverage(report), [report]);
  const linker = useMemo(() => new ProblemLinker(report, coverage), [report, coverage]);
  const groups = useMemo(() => groupProblems(report, linker), [report, linker]);
  // One pass over every receipt's checks (a million at most): once per report, not per render.
  const families = useMemo(() => familyTotals(report.receipts), [report]);
  const totals = useMemo(() => (families === null ? checkTotals(report.receipts) : []), [report, families]);
  const checkpointTotals = useMemo(() => checkTotals(report.checkpoints), [report]);
  return (
    <section data-testid="verify-summary" data-ok={String(ok)} data-state={state} data-fork={String(forked)} data-done="true" data-source={label}>
      <div className={`banner ${BANNER_CLASS[headline.tone]}`} data-testid="log-headline" data-tone={headline.tone}>
        <p>
          <strong>{headline.title}</strong> Checked in this browser: <SafeText text={label} max={120} />, {s.receipts} receipts and {s.checkpoints} checkpoints
          ({Math.round(bytes / 1024)} KiB) in {ms} ms.
        </p>
        {headline.facts.length > 0 && (
          <ul className="headline-facts" data-testid="headline-facts">
            {headline.facts.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        )}
      </div>
      <UnpinnedNotice keys={unpinnedKeys} count={unpinned} always={state === 'unpinned'} />
      <dl className="counts">
        <div>
          <dt>verified</dt>
          <dd data-testid="count-verified">{s.verified}</dd>
        </div>
        {unpinned > 0 && (
          <div>
            <dt>intact, signer not pinned</dt>
            <dd className="unpinned" data-testid="count-unpinned">
              {unpinned}
            </dd>
          </div>
        )}
        <div>
          <dt>failed</dt>
          <dd className={s.failed ? 'bad' : ''} data-testid="count-failed">
            {s.failed}
          </dd>
        </div>
        {s.unreadable ? (
          <div>
            <dt>records that could not be read</dt>
            <dd className="bad" data-testid="count-unreadable">
              {s.unreadable}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>unverified</dt>
          <dd data-testid="count-unverified">{s.unverified - unpinned}</dd>
        </div>
        {cpUnpinned > 0 ? (
          <div>
            <dt>checkpoints intact, signer not pinned</dt>
            <dd className="unpinned" data-testid="count-checkpoints-unpinned">
              {cpUnpinned} of {s.checkpoints}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>checkpoints verified</dt>
          <dd data-testid="count-checkpoints-verified">
            {s.checkpoints - cpFailed - cpUnpinned} of {s.checkpoints}
          </dd>
        </div>
      </dl>
      <CheckpointTimeline coverage={coverage} />
      {report.checkpoints.length > 0 && (
        <section data-testid="checkpoint-checks">
          <h2>Checkpoint checks</h2>
          <CheckTable totals={checkpointTotals} />
        </section>
      )}
      {families === null ? (
        <section data-testid="receipt-checks">
          <h2>Checks</h2>
          <CheckTable totals={totals} />
        </section>
      ) : (
        <>
          <h2>By runtime</h2>
          <p className="muted">
            Each runtime&apos;s receipts prove different things, so their checks are counted apart (as <code>receipt-audit verify</code> prints them): a
            ZeroClaw tag that recomputes is not a Chio signature, and a CodeWhale receipt has no signature at all.
          </p>
          <div className="table-scroll">
            <table className="grid" data-testid="runtime-counts">
              <thead>
                <tr>
                  <th scope="col">runtime</th>
                  <th scope="col">receipts</th>
                  <th scope="col">verified</th>
                  <th scope="col">failed</th>
                  <th scope="col">unverified</th>
                  <th scope="col">what they can prove</th>
                </tr>
              </thead>
              <tbody>
                {families.map((f) => (
                  <tr key={f.name} data-runtime={f.name}>
                    <th scope="row">
                      <Link href={explorerUrl({ values: { type: [...f.types] } })}>{f.name}</Link>
                    </th>
                    <td>{f.receipts}</td>
                    <td className={f.verdicts.verified ? 'good' : ''}>{f.verdicts.verified}</td>
                    <td className={f.verdicts.failed ? 'bad' : ''}>{f.verdicts.failed}</td>
                    <td>{f.verdicts.unverified}</td>
                    <td className="muted">{FAMILY_NOTES[f.name]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {families.map((f) => (
            <section key={f.name} data-testid="runtime-checks" data-runtime={f.name}>
              <h2>Checks: {f.name}</h2>
              <CheckTable totals={f.totals} />
            </section>
          ))}
        </>
      )}
      {report.packages.length > 0 && <PackageChecks packages={report.packages} />}
      {report.lineage && report.lineage.length > 0 && <LineageSummary lineage={report.lineage} />}
      <h2>Signing keys</h2>
      <ul>
        {report.keys.map((k) => (
          <li key={k.key}>
            <code>
              <SafeText text={k.key} max={140} />
            </code>
            {k.key === DEMO_KERNEL_KEY ? ' (the published demo kernel key)' : ''} signed {k.receipts} receipts and {k.checkpoints} checkpoints;{' '}
            {pinned.has(k.key) ? (
              <strong>pinned</strong>
            ) : (
              <>
                not pinned, so its signatures show only that the log is intact, not who signed it, and none of its receipts is verified (
                <a href="/trust">pin keys</a>)
              </>
            )}
            .
          </li>
        ))}
      </ul>
      <ProblemList groups={groups} linker={linker} total={report.problems.length} />
      <h2>Budgets</h2>
      {report.finance.budgets.length === 0 ? (
        <p className="muted">No financial receipts.</p>
      ) : (
        <div className="table-scroll">
          <table className="grid">
            <thead>
              <tr>
                <th scope="col">capability</th>
                <th scope="col">grant</th>
                <th scope="col">currency</th>
                <th scope="col">total</th>
                <th scope="col">charged</th>
                <th scope="col">remaining</th>
                <th scope="col">breaks</th>
              </tr>
            </thead>
            <tbody>
              {report.finance.budgets.map((b) => (
                <tr key={`${b.capability_id}/${b.grant_index}`}>
                  <th scope="row">
                    <SafeText text={b.capability_id} max={80} />
                  </th>
                  <td>{String(b.grant_index)}</td>
                  <td>
                    <SafeText text={b.currency} max={40} />
                  </td>
                  <td>{String(b.budget_total)}</td>
                  <td>{String(b.charged)}</td>
                  <td>{String(b.remaining)}</td>
                  <td className={b.breaks.length ? 'bad' : ''}>{b.breaks.length}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="muted">Amounts in minor units. Only receipts whose signature passed are counted.</p>
    </section>
  );
}

const PACKAGE_CHECK_WORDS: Record<PackageCheckName, string> = {
  manifest: 'every listed file, the counts, proof coverage and receipt semantics',
  read_boundary: 'the query names whose receipts were read (admin or one tenant)',
  scope: 'every receipt lies inside the query',
  transparency: 'publication, witness, consistency and equivocation records match the signed checkpoints',
};

/** Each evidence package's checks (contract part 2 §5.3), with the reason where one failed or was skipped. */
function PackageChecks({ packages }: { packages: VerificationReport['packages'] }) {
  return (
    <>
      <h2>Evidence packages</h2>
      {packages.map((p, i) => (
        <div key={i} className="table-scroll">
          <table className="grid" data-testid="package-checks">
            <caption>
              <SafeText text={p.path} max={120} />
            </caption>
            <thead>
              <tr>
                <th scope="col">check</th>
                <th scope="col">result</th>
                <th scope="col">what it covers, or why not</th>
              </tr>
            </thead>
            <tbody>
              {PACKAGE_CHECK_ORDER.filter((name) => p.checks[name] !== undefined).map((name) => (
                <tr key={name} data-package-check={name} data-status={p.checks[name]}>
                  <th scope="row">{name}</th>
                  <td className={p.checks[name] === 'fail' ? 'bad' : p.checks[name] === 'pass' ? 'good' : ''}>{p.checks[name]}</td>
                  <td>{p.details?.[name] ? <SafeText text={p.details[name]} max={300} /> : <span className="muted">{PACKAGE_CHECK_WORDS[name]}</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </>
  );
}

/** The capability-lineage rows the log carried (contract part 2 §5.3.1): how many verified against their signed token, and which failed. */
function LineageSummary({ lineage }: { lineage: NonNullable<VerificationReport['lineage']> }) {
  const failed = lineage.filter((l) => l.verdict === 'failed');
  const verified = lineage.filter((l) => l.verdict === 'verified').length;
  const other = lineage.length - verified - failed.length;
  return (
    <section data-testid="lineage-summary" data-rows={lineage.length} data-failed={failed.length}>
      <h2>Capability lineage</h2>
      <p>
        {lineage.length} {lineage.length === 1 ? 'row' : 'rows'}: <span className={verified ? 'good' : ''}>{verified} signed and verified</span> (the
        issuer&apos;s token checks, and the row matches it), <span className={failed.length ? 'bad' : ''}>{failed.length} failed</span>
        {other > 0 ? `, ${other} not checked` : ''}. Who delegated what to whom is drawn on the <Link href="/dag">DAG</Link>.
      </p>
      {failed.length > 0 && (
        <ul>
          {failed.slice(0, 20).map((l) => (
            <li key={`${l.file}:${l.line}`}>
              <code>
                <SafeText text={l.capability_id} max={80} />
              </code>{' '}
              (<SafeText text={`${l.file}:${l.line}`} max={120} />
              ): {l.problems.flatMap((p, i) => (i === 0 ? [<code key={p}>{p}</code>] : [', ', <code key={p}>{p}</code>]))}
            </li>
          ))}
          {failed.length > 20 && <li>and {failed.length - 20} more (see the problems below)</li>}
        </ul>
      )}
    </section>
  );
}
