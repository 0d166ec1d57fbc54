'use client';
// What was checked in the selection, never one green tick (contract §1.2):
// per check how many receipts passed, failed or skipped it and why, and the
// problems by code, those of the selection's receipts and those of the log
// that name no receipt.
import Link from 'next/link';
import { type ComplianceSelection, explorerLink } from '../../../lib/readers/compliance';
import type { ProblemCount, RangeReport } from '../../../lib/readers/compliance-report';

const fmt = (n: number) => n.toLocaleString('en-US');

const CHECK_MEANING: Record<string, string> = {
  parse: 'The record could be read as a receipt.',
  signature: 'The kernel’s signature matches the receipt’s content.',
  receipt_id: 'Gen B: the id is the hash of the content.',
  semantics: 'Gen B: kind, boundary, decision and trust level fit together.',
  parameter_hash: 'The recorded tool parameters match their hash.',
  inclusion: 'The receipt is in a signed checkpoint (skipped for the uncheckpointed tail).',
  signer_trusted: 'The signing key is pinned, for the receipt’s time.',
};

export function ChecksSection({ summary, selection }: { summary: RangeReport; selection: ComplianceSelection }) {
  return (
    <section className="report-section" aria-labelledby="checks-heading" data-testid="checks-section">
      <h2 id="checks-heading">What was checked</h2>
      <p className="lede">
        Each receipt of this selection ({fmt(summary.inSelection)}, every verdict) went through these checks; a receipt is verified only when every check that
        applies to it passed (the inclusion check may be skipped for the uncheckpointed tail).
      </p>
      {summary.checks.length === 0 ? (
        <p className="muted">No receipt in this selection.</p>
      ) : (
        <table className="grid compact" data-testid="check-totals">
          <thead>
            <tr>
              <th scope="col">check</th>
              <th scope="col" className="num">
                passed
              </th>
              <th scope="col" className="num">
                failed
              </th>
              <th scope="col">skipped (why)</th>
              <th scope="col">what it checks</th>
            </tr>
          </thead>
          <tbody>
            {summary.checks.map((t) => (
              <tr key={t.name} data-check={t.name} data-pass={t.pass} data-fail={t.fail}>
                <th scope="row">
                  <code>{t.name}</code>
                </th>
                <td className={`num${t.pass ? ' good' : ''}`}>{fmt(t.pass)}</td>
                <td className={`num${t.fail ? ' bad' : ''}`}>{fmt(t.fail)}</td>
                <td>{[...t.skipped].map(([why, n]) => `${fmt(n)} (${why})`).join('; ') || '–'}</td>
                <td className="muted">{CHECK_MEANING[t.name] ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Problems</h3>
      {summary.problems.length === 0 ? (
        <p className="muted" data-testid="problems-none">
          No problem names a receipt of this selection.
        </p>
      ) : (
        <ProblemTable rows={summary.problems} selection={selection} testId="selection-problems" />
      )}
      {summary.logProblems.length > 0 && (
        <>
          <p>Problems of the whole log that name no receipt (checkpoints, unreadable lines, package files): these are not narrowed to the selection.</p>
          <ProblemTable rows={summary.logProblems} selection={null} testId="log-problems" />
        </>
      )}
    </section>
  );
}

function ProblemTable({ rows, selection, testId }: { rows: ProblemCount[]; selection: ComplianceSelection | null; testId: string }) {
  return (
    <table className="grid compact" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">problem</th>
          <th scope="col">severity</th>
          <th scope="col" className="num">
            problems
          </th>
          {selection && (
            <th scope="col" className="num">
              receipts
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map((p) => (
          <tr key={p.code} data-code={p.code} data-problems={p.problems} data-receipts={p.receipts}>
            <th scope="row">
              {p.title} <code className="muted small">{p.code}</code>
            </th>
            <td>
              <span className={`severity ${p.severity}`}>{p.severity}</span>
            </td>
            <td className="num">{fmt(p.problems)}</td>
            {selection && (
              <td className="num">
                <Link href={explorerLink(selection, { verdict: [], problem: [p.code] })}>{fmt(p.receipts)}</Link>
              </td>
            )}
          </tr>
        ))}
        {!selection && (
          <tr className="no-print">
            <td colSpan={3}>
              <Link href="/">See them on the overview</Link>
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
