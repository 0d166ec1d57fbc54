'use client';
// A receipt of the open log: its verdict, one line per check with the reason,
// and the fields the explorer shows. Fields are rendered as text, never HTML.
import Link from 'next/link';
import { useEffect } from 'react';
import { useLog } from '../data/log-provider';
import { formatAmount, formatTime } from '../explorer/format';
import { STRING_COLUMNS } from '../../lib/query/row-store';

const LABELS: Record<string, string> = {
  parse: 'parsed strictly (no duplicate keys, lone surrogates or lossy numbers)',
  signature: 'signature over the canonical signed fields',
  receipt_id: 'content-addressed id recomputes (Gen B)',
  semantics: 'kind, boundary, outcome, decision and trust fit together (Gen B)',
  parameter_hash: 'parameter hash recomputes from the parameters',
  inclusion: 'included in a verified checkpoint',
  signer_trusted: 'signed by a pinned key, inside its validity window',
};

export function ReceiptDetail({ id }: { id: string }) {
  const { session, rows, ensureOpen } = useLog();
  useEffect(ensureOpen, [ensureOpen]);
  if (session.status !== 'done') {
    return <p data-testid="receipt-verdict" data-verdict="pending">Verifying the log… ({session.status === 'running' ? session.rows : 0} receipts so far)</p>;
  }
  const entry = session.report.receipts.find((r) => r.id === id);
  const row = rows.current?.rowById(id);
  if (!entry || row === undefined || !rows.current) {
    return (
      <p role="alert" data-testid="receipt-verdict" data-verdict="missing">
        The open log ({session.label}) has no receipt with id <code>{id}</code>. <Link href="/receipts">All receipts</Link>
      </p>
    );
  }
  const store = rows.current;
  const problems = session.report.problems.filter((p) => p.receipt_id === id);
  return (
    <article>
      <p>
        <Link href="/receipts">← receipts</Link>
      </p>
      <h1>
        <code>{id}</code>
      </h1>
      <p data-testid="receipt-verdict" data-verdict={entry.verdict} className={`banner ${entry.verdict === 'verified' ? 'ok' : 'bad'}`}>
        <strong>{entry.verdict}</strong> — {entry.type} receipt{entry.generation ? ` (Gen ${entry.generation})` : ''}, {entry.file}:{entry.line}
      </p>
      <h2>Checks</h2>
      <ul className="checklist">
        {Object.entries(entry.checks).map(([name, status]) => (
          <li key={name} className={status}>
            <strong>{status}</strong> {LABELS[name] ?? name}
            {entry.details?.[name] ? <span className="muted"> — {entry.details[name]}</span> : null}
          </li>
        ))}
      </ul>
      {problems.length > 0 && (
        <>
          <h2>Problems</h2>
          <ul>
            {problems.map((p, i) => (
              <li key={i}>
                <code>{p.code}</code> {p.message}
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>Claimed fields</h2>
      <p className="muted">What the receipt says; the checks above say whether it is signed and intact.</p>
      <table className="grid">
        <tbody>
          <tr><th scope="row">time</th><td>{formatTime(store.time[row]!)}</td></tr>
          {store.hasCost[row] ? <tr><th scope="row">cost</th><td>{formatAmount(store.cost[row]!, store.str('currency', row))}</td></tr> : null}
          {STRING_COLUMNS.filter((c) => c !== 'id' && store.str(c, row) !== undefined).map((c) => (
            <tr key={c}>
              <th scope="row">{c}</th>
              <td>{store.str(c, row)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}
