'use client';
// What did not verify: the report's error problems grouped by code (the
// overview's grouping, lib/overview/problem-groups), each with the explorer
// over its receipts and each problem linked to its receipt, its checkpoint
// on the overview, or its file; and the receipts flagged with unsigned
// fields or a mismatched algorithm. Messages and ids come from the log:
// rendered as text only.
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { buildCoverage } from '../../../lib/overview/checkpoint-coverage';
import { type ProblemGroup, ProblemLinker, groupProblems, receiptHref } from '../../../lib/overview/problem-groups';
import { type FlaggedReceipt, type VerificationFailures, explorerLink } from '../../../lib/readers/security';
import type { Problem, ProblemCode } from '../../../lib/verdict/problems';
import type { VerificationReport } from '../../../lib/verdict/report';
import { SafeText } from '../../ui/safe-text';

const n = (x: number) => x.toLocaleString('en-US');
const PAGE = 50;

export function FailedVerifications({ report, failures: f }: { report: VerificationReport; failures: VerificationFailures }) {
  const linker = useMemo(() => new ProblemLinker(report, buildCoverage(report)), [report]);
  const groups = useMemo(() => groupProblems(report, linker).filter((g) => g.severity === 'error'), [report, linker]);
  return (
    <div data-testid="failed-verifications" data-groups={groups.length}>
      <dl className="counts">
        <div>
          <dt>receipts failed</dt>
          <dd data-testid="failed-receipts" className={f.failed ? 'bad' : ''}>
            {f.failed ? <Link href={explorerLink({ verdict: ['failed'] })}>{n(f.failed)}</Link> : 0}
          </dd>
        </div>
        <div>
          <dt>not fully checked</dt>
          <dd data-testid="unverified-receipts">{f.unverified ? <Link href={explorerLink({ verdict: ['unverified'] })}>{n(f.unverified)}</Link> : 0}</dd>
        </div>
        <div>
          <dt>checkpoints failed</dt>
          <dd data-testid="failed-checkpoints-count" className={f.checkpointsFailed ? 'bad' : ''}>
            {n(f.checkpointsFailed)} <span className="muted small">of {n(f.checkpoints)}</span>
          </dd>
        </div>
        <div>
          <dt>unreadable records</dt>
          <dd data-testid="unread-lines" className={f.unreadLines ? 'bad' : ''}>
            {n(f.unreadLines)}
          </dd>
        </div>
      </dl>
      {groups.length === 0 ? (
        <p className="empty ok-note" data-testid="failed-none">
          Nothing failed: every receipt, checkpoint and line of this log passed the checks that ran.
        </p>
      ) : (
        groups.map((g) => <FailureGroup key={g.code} group={g} linker={linker} />)
      )}
    </div>
  );
}

function FailureGroup({ group: g, linker }: { group: ProblemGroup; linker: ProblemLinker }) {
  const [shown, setShown] = useState(PAGE);
  const rest = g.problems.length - shown;
  return (
    <details
      className="problem-group"
      open={g.problems.length <= 20}
      data-testid="failure-group"
      data-code={g.code}
      data-count={g.problems.length}
      data-receipts={g.receipts}
    >
      <summary>
        <span className="severity error">error</span> <code>{g.code}</code> {g.title} <strong>({n(g.problems.length)})</strong>
      </summary>
      {g.explorerHref && (
        <p>
          <Link href={g.explorerHref} data-testid="failure-group-explorer">
            List the {n(g.receipts)} receipt{g.receipts === 1 ? '' : 's'} with this problem in the explorer
          </Link>
        </p>
      )}
      <ul className="problem-items">
        {g.problems.slice(0, shown).map((p, i) => (
          <li key={i}>
            <Where problem={p} linker={linker} /> <SafeText text={p.message} max={400} />
          </li>
        ))}
      </ul>
      {rest > 0 && (
        <button type="button" className="button" onClick={() => setShown((s) => s + PAGE)}>
          Show {Math.min(PAGE, rest)} more ({n(rest)} not shown)
        </button>
      )}
    </details>
  );
}

function Where({ problem: p, linker }: { problem: Problem; linker: ProblemLinker }) {
  const t = linker.targetOf(p);
  const loc = p.file === undefined ? '' : `${p.file}${p.line !== undefined ? `:${p.line}` : ''}`;
  if (t.kind === 'receipt') {
    return (
      <Link href={t.href} data-testid="failure-link">
        <code>
          <SafeText text={t.receiptId} max={80} expandable={false} />
        </code>
      </Link>
    );
  }
  // Checkpoints are drawn on the overview's timeline: the link goes there.
  if (t.kind === 'checkpoint') return <Link href={`/${t.href}`}>checkpoint {t.checkpointSeq.toString()}</Link>;
  if (t.kind === 'file')
    return (
      <Link href={t.href}>
        <SafeText text={loc} max={120} expandable={false} />
      </Link>
    );
  return loc ? (
    <code>
      <SafeText text={loc} max={120} />
    </code>
  ) : null;
}

export function FlaggedReceipts({ title, explain, items, code }: { title: string; explain: string; items: FlaggedReceipt[]; code: ProblemCode }) {
  const [shown, setShown] = useState(PAGE);
  return (
    <section className="flagged" data-testid={`flagged-${code}`} data-count={items.length}>
      <h3>
        {title} ({n(items.length)})
      </h3>
      {items.length === 0 ? (
        <p className="empty ok-note">None in this log.</p>
      ) : (
        <>
          <p className="muted">
            {explain} <Link href={explorerLink({ problem: [code] })}>List them in the explorer</Link>.
          </p>
          <table className="grid compact">
            <thead>
              <tr>
                <th scope="col">receipt</th>
                <th scope="col">verdict</th>
                <th scope="col">what</th>
                <th scope="col">where</th>
              </tr>
            </thead>
            <tbody>
              {items.slice(0, shown).map((f, i) => (
                <tr key={i}>
                  <td>
                    <Link href={receiptHref(f.receiptId, f.file, f.line)}>
                      <code>
                        <SafeText text={f.receiptId} max={80} expandable={false} />
                      </code>
                    </Link>
                  </td>
                  <td className={`verdict ${f.verdict ?? ''}`}>{f.verdict ?? '—'}</td>
                  <td className="message">
                    <SafeText text={f.message} max={400} />
                  </td>
                  <td>
                    <SafeText text={f.file === undefined ? '—' : `${f.file}${f.line !== undefined ? `:${f.line}` : ''}`} max={120} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {items.length > shown && (
            <button type="button" className="button" onClick={() => setShown((s) => s + PAGE)}>
              Show {Math.min(PAGE, items.length - shown)} more ({n(items.length - shown)} not shown)
            </button>
          )}
        </>
      )}
    </section>
  );
}
