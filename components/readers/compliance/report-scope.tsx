'use client';
// The head of the compliance report: exactly what it covers and on what it
// stands — the log's source, the range and policy, the keys pinned, when and
// where it was verified, the counting rule — and, first of all, whether the
// selection holds receipts that were not verified.
import { useMemo } from 'react';
import type { ComplianceSelection } from '../../../lib/readers/compliance';
import type { RangeReport } from '../../../lib/readers/compliance-report';
import type { TrustEntry } from '../../../lib/trust/trust-file';
import { formatTime } from '../../explorer/format';
import { type PolicyNames, policyLabel } from './policy-names';
import { SafeText } from '../../ui/safe-text';

const fmt = (n: number) => n.toLocaleString('en-US');
const utc = (s: number) => `${formatTime(s)} UTC`;

function rangeText(sel: ComplianceSelection, log: { first: number; last: number }): string {
  if (sel.since === undefined && sel.until === undefined) {
    return Number.isFinite(log.first) ? `the whole log (${utc(log.first)} to ${utc(log.last)})` : 'the whole log';
  }
  if (sel.since !== undefined && sel.until !== undefined) return `${utc(sel.since)} to ${utc(sel.until)}, inclusive`;
  return sel.since !== undefined ? `from ${utc(sel.since)} on` : `up to ${utc(sel.until!)}, inclusive`;
}

/** `unreadable`: records of the log that could not be read (in no selection: nobody can say what they held). */
export function ReportScope({
  source,
  summary,
  trust,
  pinned,
  names,
  log,
  unreadable = 0,
}: {
  source: string;
  summary: RangeReport;
  trust: TrustEntry[];
  pinned: boolean;
  names: PolicyNames;
  log: { first: number; last: number };
  unreadable?: number;
}) {
  const sel = summary.selection;
  const { verified, failed, unverified, unpinned, pending } = summary.verdicts;
  // Intact receipts under a key nobody pinned are not verified either (contract part 2 §11).
  const notVerified = failed + unverified + unpinned + pending;
  const generated = useMemo(() => utc(Math.floor(Date.now() / 1000)), []);
  const narrowed = sel.since !== undefined || sel.until !== undefined || sel.policy !== undefined;
  return (
    <header
      className="report-scope"
      data-testid="report-scope"
      data-in-selection={summary.inSelection}
      data-verified={verified}
      data-not-verified={notVerified}
    >
      <p className="print-only report-title">Receipt Audit · compliance report</p>
      {summary.inSelection === 0 ? (
        <p className="banner warn" data-testid="scope-empty">
          <strong>No receipt of the log is in this selection.</strong> Nothing below is counted.
        </p>
      ) : notVerified > 0 ? (
        <p className="banner bad" data-testid="scope-unverified">
          <strong>
            {fmt(notVerified)} of the {fmt(summary.inSelection)} receipts in this selection {notVerified === 1 ? 'was' : 'were'} not verified
          </strong>{' '}
          (
          {[
            failed && `${fmt(failed)} failed`,
            unpinned && `${fmt(unpinned)} intact, signer not pinned`,
            unverified && `${fmt(unverified)} unverified`,
            pending && `${fmt(pending)} not yet checked`,
          ]
            .filter(Boolean)
            .join(', ')}
          ). They are not counted in the figures below; “What was checked” says why.
        </p>
      ) : unreadable > 0 ? (
        // Every receipt read is verified, but the log dropped records: never green (issue 21).
        <p className="banner bad" data-testid="scope-incomplete">
          <strong>
            All {fmt(summary.inSelection)} receipts read in this selection were verified, but {fmt(unreadable)} {unreadable === 1 ? 'record' : 'records'} of the
            log could not be read.
          </strong>{' '}
          {unreadable === 1 ? 'It is' : 'They are'} in no selection and no figure below, and this report cannot say what {unreadable === 1 ? 'it' : 'they'}{' '}
          held; the overview lists where.
        </p>
      ) : (
        <p className="banner ok" data-testid="scope-all-verified">
          <strong>All {fmt(summary.inSelection)} receipts in this selection were verified.</strong>
        </p>
      )}
      <dl className="facts">
        <dt>Log</dt>
        <dd data-testid="scope-source">
          <SafeText text={source} max={200} />
        </dd>
        <dt>Time</dt>
        <dd data-testid="scope-range">
          {rangeText(sel, log)}
          {narrowed ? `: ${fmt(summary.inSelection)} of the log’s ${fmt(summary.total)} receipts` : `: ${fmt(summary.total)} receipts`}
          {unreadable > 0
            ? `; ${fmt(unreadable)} ${unreadable === 1 ? 'record' : 'records'} of the log could not be read and ${unreadable === 1 ? 'is' : 'are'} outside every range`
            : ''}
          {summary.untimed > 0 ? `; ${fmt(summary.untimed)} receipts carry no usable time and are outside any range` : ''}
          {summary.otherRuntimes > 0
            ? `; the log's ${fmt(summary.otherRuntimes)} ZeroClaw and CodeWhale receipts are left out (this report reads Chio receipts)`
            : ''}
        </dd>
        <dt>Policy</dt>
        <dd data-testid="scope-policy">
          {sel.policy === undefined ? (
            'every policy'
          ) : (
            <>
              only {policyLabel(names, sel.policy)}:{' '}
              <code className="hash">
                <SafeText text={sel.policy} max={200} />
              </code>
            </>
          )}
        </dd>
        <dt>Pinned keys</dt>
        <dd data-testid="scope-keys">
          {trust.length === 0 || !pinned ? (
            'none: signatures show that the log is self-consistent, not who signed it'
          ) : (
            <ul className="plain">
              {trust.map((t, i) => (
                <li key={i}>
                  <code className="hash">
                    <SafeText text={t.key} max={140} />
                  </code>
                  {t.label ? (
                    <>
                      {' '}
                      (<SafeText text={t.label} max={80} />)
                    </>
                  ) : (
                    ''
                  )}
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Verified</dt>
        <dd>in this browser, with Receipt Audit; report made {generated}</dd>
        <dt>Counting rule</dt>
        <dd>
          Every number counts <strong>verified receipts only</strong>: those whose every applicable check passed. A receipt outside the time range
          {sel.policy !== undefined ? ' or under another policy' : ''} is not counted; failed and unverified receipts are never counted, and are listed under
          “What was checked”.
        </dd>
      </dl>
      <dl className="counts">
        <div>
          <dt>verified (counted)</dt>
          <dd data-testid="scope-count-verified">{fmt(verified)}</dd>
        </div>
        <div>
          <dt>failed</dt>
          <dd data-testid="scope-count-failed" className={failed ? 'bad' : undefined}>
            {fmt(failed)}
          </dd>
        </div>
        {unpinned > 0 && (
          <div>
            <dt>intact, signer not pinned</dt>
            <dd data-testid="scope-count-unpinned" className="unpinned">
              {fmt(unpinned)}
            </dd>
          </div>
        )}
        <div>
          <dt>unverified</dt>
          <dd data-testid="scope-count-unverified" className={unverified ? 'warn' : undefined}>
            {fmt(unverified)}
          </dd>
        </div>
        {pending > 0 && (
          <div>
            <dt>not yet checked</dt>
            <dd>{fmt(pending)}</dd>
          </div>
        )}
      </dl>
    </header>
  );
}
