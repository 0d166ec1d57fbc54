'use client';
// Spend over time for one currency: charged amounts per time bucket, stacked
// by settlement status (ECharts). Clicking a bar opens the explorer on exactly
// that bucket's verified receipts of that currency and status. Bar heights
// are floats (drawing only); the tooltip and the table behind the chart show
// the exact amounts.
import Link from 'next/link';
import { revealPlain } from '../../../lib/text/reveal';
import { useRouter } from 'next/navigation';
import { useMemo } from 'react';
import { formatMinor, minorToApproxMajor } from '../../../lib/finance/money';
import { SETTLEMENTS, type Settlement } from '../../../lib/readers/finance';
import { type SpendOverTime, type SpendSeries, bucketFilter } from '../../../lib/readers/finance-spend';
import { type EChartOption, EChart, escapeHtml } from '../../charts/echart';
import { explorerHref, n } from './parts';
import { SafeText } from '../../ui/safe-text';

const COLORS: Record<Settlement, string> = { settled: '#2da44e', pending: '#d4a72c', failed: '#cf222e', not_applicable: '#8c959f' };
/** Fixed margins, so a test can find a bar from its index. */
export const SPEND_GRID = { left: 84, right: 20, top: 40, bottom: 56 };

function bucketLabel(spend: SpendOverTime, i: number): string {
  const iso = new Date((spend.start + i * spend.bucketSeconds) * 1000).toISOString();
  return spend.bucketSeconds < 86400 ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
}

/** The statuses worth a series: any receipt with a non-zero charge. */
function shownStatuses(s: SpendSeries): Settlement[] {
  return SETTLEMENTS.filter((k) => s.amount[k].some((a) => a > 0n));
}

export function SpendChart({ spend, series }: { spend: SpendOverTime; series: SpendSeries }) {
  const router = useRouter();
  const statuses = useMemo(() => shownStatuses(series), [series]);
  const labels = useMemo(() => Array.from({ length: spend.count }, (_, i) => bucketLabel(spend, i)), [spend]);
  const option = useMemo<EChartOption>(() => {
    const cur = series.currency;
    return {
      grid: SPEND_GRID,
      legend: { top: 4, data: statuses },
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        // The tooltip is HTML: every piece of text is escaped (the currency comes from receipts).
        formatter: (items: { dataIndex: number }[]) => {
          const i = items[0]?.dataIndex ?? 0;
          const lines = statuses.map(
            (k) =>
              `${escapeHtml(k)}: ${escapeHtml(formatMinor(series.amount[k][i]!, cur))} (${series.receipts[k][i]} receipt${series.receipts[k][i] === 1 ? '' : 's'})`,
          );
          return [`<strong>${escapeHtml(labels[i]!)} UTC</strong>`, ...lines].join('<br/>');
        },
      },
      xAxis: { type: 'category', data: labels, axisLabel: { hideOverlap: true } },
      yAxis: { type: 'value', name: revealPlain(cur, 24), axisLabel: { formatter: (v: number) => v.toLocaleString('en-US') } },
      series: statuses.map((k) => ({
        name: k,
        type: 'bar',
        stack: 'spend',
        barMaxWidth: 56,
        itemStyle: { color: COLORS[k] },
        data: series.amount[k].map((a) => minorToApproxMajor(a, cur)),
      })),
    };
  }, [series, statuses, labels]);
  // Plain text (the chart's accessible name and caption are strings): the currency revealed as on the axis.
  const curText = revealPlain(series.currency, 24);
  const total = statuses
    .map(
      (k) =>
        `${k} ${revealPlain(
          formatMinor(
            series.amount[k].reduce((a, b) => a + b, 0n),
            series.currency,
          ),
          60,
        )}`,
    )
    .join(', ');
  return (
    <>
      <div
        data-testid="finance-spend-chart"
        data-currency={series.currency}
        data-buckets={spend.count}
        data-grid={`${SPEND_GRID.left},${SPEND_GRID.right},${SPEND_GRID.top},${SPEND_GRID.bottom}`}
      >
        <EChart
          option={option}
          height={320}
          label={`${curText} charged per ${spend.bucketLabel}, stacked by settlement status`}
          summary={`${curText} charged over ${spend.count} ${spend.bucketLabel} buckets: ${total}.`}
          onSelect={(s) => {
            const k = s.seriesName as Settlement | undefined;
            if (!k || !(SETTLEMENTS as readonly string[]).includes(k)) return;
            router.push(explorerHref(bucketFilter(spend, s.dataIndex, series.currency, k)));
          }}
        />
      </div>
      <details className="fin-behind">
        <summary>The numbers behind the chart</summary>
        <table className="fin-table" data-testid="finance-spend-table">
          <thead>
            <tr>
              <th scope="col">{spend.bucketLabel} from (UTC)</th>
              {statuses.map((k) => (
                <th key={k} scope="col" className="num">
                  {k}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((label, i) =>
              statuses.every((k) => series.receipts[k][i] === 0) ? null : (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  {statuses.map((k) => (
                    <td
                      key={k}
                      className="num"
                      data-bucket={i}
                      data-status={k}
                      data-since={spend.start + i * spend.bucketSeconds}
                      data-receipts={series.receipts[k][i]}
                      data-amount={series.amount[k][i]!.toString()}
                    >
                      {series.receipts[k][i] ? (
                        <Link href={explorerHref(bucketFilter(spend, i, series.currency, k))}>
                          <SafeText text={formatMinor(series.amount[k][i]!, series.currency)} max={60} expandable={false} />
                        </Link>
                      ) : (
                        '–'
                      )}
                      {series.receipts[k][i] ? <span className="muted"> ({n(series.receipts[k][i]!)})</span> : null}
                    </td>
                  ))}
                </tr>
              ),
            )}
          </tbody>
        </table>
      </details>
    </>
  );
}
