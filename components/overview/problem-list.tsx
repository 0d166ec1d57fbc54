'use client';
// The report's problems grouped by code, every one reachable: each group says
// how many, opens (small groups start open) and pages through its problems,
// and links to the explorer rows that carry its code; each problem links to
// its receipt, its checkpoint on the timeline, or the explorer over its file.
// Messages, ids and file names come from the log: rendered as text only.
import Link from 'next/link';
import { useState } from 'react';
import type { ProblemGroup, ProblemLinker } from '../../lib/overview/problem-groups';
import type { Problem } from '../../lib/verdict/problems';
import { refocusAnchor } from './failed-checkpoints';
import { SafeText } from '../ui/safe-text';

/** Groups up to this size start open. */
const OPEN_UP_TO = 20;
const PAGE = 100;

export function ProblemList({ groups, linker, total }: { groups: ProblemGroup[]; linker: ProblemLinker; total: number }) {
  return (
    <>
      <h2>Problems ({total.toLocaleString('en-US')})</h2>
      {total === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <div data-testid="problems">
          {groups.map((g) => (
            <Group key={g.code} group={g} linker={linker} />
          ))}
        </div>
      )}
    </>
  );
}

function Group({ group, linker }: { group: ProblemGroup; linker: ProblemLinker }) {
  const [open, setOpen] = useState(group.problems.length <= OPEN_UP_TO);
  const [shown, setShown] = useState(PAGE);
  const n = group.problems.length;
  const rest = n - shown;
  return (
    <details
      className="problem-group"
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      data-testid="problem-group"
      data-code={group.code}
      data-count={n}
    >
      <summary>
        <span className={`severity ${group.severity}`}>{group.severity}</span> <code>{group.code}</code> {group.title}{' '}
        <strong>({n.toLocaleString('en-US')})</strong>
      </summary>
      {group.explorerHref && (
        <p>
          <Link href={group.explorerHref} data-testid="problem-group-explorer">
            Show the {group.receipts.toLocaleString('en-US')} receipt{group.receipts === 1 ? '' : 's'} with this problem in the explorer
          </Link>
        </p>
      )}
      {open && (
        <ul className="problem-items">
          {group.problems.slice(0, shown).map((p, i) => (
            <li key={i}>
              <Where problem={p} linker={linker} /> <SafeText text={p.message} max={400} />
            </li>
          ))}
        </ul>
      )}
      {open && rest > 0 && (
        <button type="button" className="button" onClick={() => setShown((s) => s + PAGE)}>
          Show {Math.min(PAGE, rest)} more ({rest.toLocaleString('en-US')} not shown)
        </button>
      )}
    </details>
  );
}

/** Codes whose line never became a record. */
const UNREAD = new Set<Problem['code']>(['parse_error', 'duplicate_key']);

const at = (p: Problem) => (p.file === undefined ? '' : `${p.file}${p.line !== undefined ? `:${p.line}` : ''}`);

/** The link to what a problem concerns, and where in the log it was found. */
function Where({ problem: p, linker }: { problem: Problem; linker: ProblemLinker }) {
  const t = linker.targetOf(p);
  const loc = at(p);
  switch (t.kind) {
    case 'receipt':
      return (
        <>
          <Link href={t.href} data-testid="problem-link" data-target="receipt">
            <code>
              <SafeText text={t.receiptId} max={80} expandable={false} />
            </code>
          </Link>
          {loc && (
            <span className="muted">
              {' '}
              (<SafeText text={loc} max={120} />)
            </span>
          )}
        </>
      );
    case 'checkpoint':
      return (
        <>
          {/* A plain anchor: it moves on this page and fires hashchange, which focuses the segment (again, if it is already the target). */}
          <a href={t.href} data-testid="problem-link" data-target="checkpoint" onClick={() => refocusAnchor(t.href)}>
            checkpoint {t.checkpointSeq.toString()}
          </a>
          {loc && (
            <span className="muted">
              {' '}
              (<SafeText text={loc} max={120} />)
            </span>
          )}
        </>
      );
    case 'file':
      return (
        <>
          <Link href={t.href} data-testid="problem-link" data-target="file">
            <SafeText text={loc} max={120} expandable={false} />
          </Link>
          <span className="muted">
            {' '}
            ({p.line === undefined ? '' : UNREAD.has(p.code) ? `no receipt could be read from line ${p.line}; ` : `line ${p.line}; `}the link lists the receipts
            read from <SafeText text={t.file} max={120} />)
          </span>
        </>
      );
    default:
      return loc ? (
        <code>
          <SafeText text={loc} max={120} />
        </code>
      ) : null;
  }
}
