'use client';
// Small pieces the finance view's sections share: a section with its "what
// this counts" line and CSV button, links to a receipt and to the explorer.
// Receipt fields are attacker-controlled: they only ever become text nodes
// or a URL-encoded path segment / query value.
import Link from 'next/link';
import { revealPlain } from '../../../lib/text/reveal';
import type { ReactNode } from 'react';
import { type CsvTable, toCsv } from '../../../lib/text/csv';
import { type ExplorerFilter, explorerUrl } from '../../../lib/query/explorer-filter';
import { downloadText } from '../../data/download';
import { SafeText } from '../../ui/safe-text';

export const explorerHref = (f: ExplorerFilter) => explorerUrl(f);

/** An explorer filter over the verified receipts with these values. */
export function verifiedFilter(values: ExplorerFilter['values'], extra: Partial<ExplorerFilter> = {}): ExplorerFilter {
  return { values: { verdict: ['verified'], ...values }, sort: { column: 'order', dir: 'asc' }, ...extra };
}

export function ReceiptLink({ id }: { id: string }) {
  return (
    <Link href={`/receipts/${encodeURIComponent(id)}`} className="fin-mono" title={revealPlain(id, 200)} data-testid="finance-receipt-link">
      <SafeText text={id} max={24} expandable={false} />
    </Link>
  );
}

/** Builds the table only when asked: a CSV of 100,000 rows is not made on every render. */
export function CsvButton({ table, testId }: { table: () => CsvTable; testId: string }) {
  return (
    <button
      type="button"
      className="button"
      data-testid={testId}
      onClick={() => {
        const t = table();
        downloadText(t.name, toCsv(t), 'text/csv');
      }}
    >
      Download CSV
    </button>
  );
}

export function Section({ id, title, counts, tools, children }: { id: string; title: string; counts: ReactNode; tools?: ReactNode; children: ReactNode }) {
  return (
    <section className="fin-section" id={id} data-testid={`finance-section-${id}`} aria-labelledby={`${id}-title`}>
      <div className="fin-head">
        <h2 id={`${id}-title`}>{title}</h2>
        {tools && <div className="fin-tools">{tools}</div>}
      </div>
      <p className="muted fin-counts">{counts}</p>
      {children}
    </section>
  );
}

export function Empty({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <p className="fin-empty" data-testid={testId}>
      {children}
    </p>
  );
}

/** "… and 1,234 more" under a list cut at `shown` rows. */
export function More({ shown, total, href }: { shown: number; total: number; href?: string }) {
  if (total <= shown) return null;
  return (
    <p className="fin-more">
      Showing the first {shown.toLocaleString('en-US')} of {total.toLocaleString('en-US')}: the CSV holds them all
      {href ? (
        <>
          , or <Link href={href}>open them in the explorer</Link>
        </>
      ) : null}
      .
    </p>
  );
}

export const n = (x: number) => x.toLocaleString('en-US');

/** A duration in whole minutes, hours or days, for ages on the log's clock. */
export function formatAge(seconds: number): string {
  if (!Number.isFinite(seconds)) return '—';
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}
