'use client';
// Verified denials over time as stacked bars (ECharts), by blocking guard or
// by tool, with the totals beside it as tables. Clicking a bar opens the
// explorer on that bar's denials (decision=deny, the guard or tool, the
// bucket's since/until); each table row opens the explorer on its denials.
import Link from 'next/link';
import { revealPlain } from '../../../lib/text/reveal';
import { useRouter } from 'next/navigation';
import { useMemo } from 'react';
import { BUCKET_SECONDS, type DenialTotals, type DenialsOverTime, type OverTimeSeries, type Tally, denialBarHref } from '../../../lib/readers/security';
import { type ChartSelection, EChart, type EChartOption } from '../../charts/echart';
import type { Grouping } from './security-view';
import { SafeText } from '../../ui/safe-text';

const PALETTE = ['#cf222e', '#0969da', '#bc4c00', '#8250df', '#1a7f37', '#bf3989', '#9a6700', '#1b7c83'];
const OTHER = '#8c959f';
/** The chart's plot area in pixels (fixed, so a test can find a bar). */
export const DENIALS_GRID = { left: 48, right: 48, top: 56, bottom: 48 };
export const DENIALS_HEIGHT = 320;

const two = (n: number) => String(n).padStart(2, '0');
function bucketLabel(start: number, width: number): string {
  const d = new Date(start * 1000);
  const day = `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  return width >= 86400 ? day : `${day} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}
export function widthLabel(seconds: number): string {
  if (seconds % 604800 === 0) return seconds === 604800 ? '1 week' : `${seconds / 604800} weeks`;
  if (seconds % 86400 === 0) return seconds === 86400 ? '1 day' : `${seconds / 86400} days`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  return `${seconds / 60} min`;
}
const seriesName = (s: OverTimeSeries, by: Grouping) =>
  s.key === null ? 'other' : s.key === '' ? (by === 'guard' ? '(no guard named)' : '(no tool named)') : s.key;

export function DenialsOverTimeChart({
  chart,
  totals,
  onBy,
  onBucket,
  auto,
}: {
  chart: DenialsOverTime;
  totals: DenialTotals;
  onBy: (b: Grouping) => void;
  onBucket: (s: number | undefined) => void;
  auto: boolean;
}) {
  const router = useRouter();
  const names = useMemo(() => chart.series.map((s) => seriesName(s, chart.by)), [chart]);
  const option = useMemo<EChartOption>(() => {
    const labels = chart.starts.map((s) => bucketLabel(s, chart.bucketSeconds));
    return {
      grid: { ...DENIALS_GRID, outerBoundsMode: 'none' },
      // Series names are guard or tool names from receipts: drawn on the canvas revealed and clipped (the tooltip escapes them itself).
      legend: { top: 0, type: 'scroll', formatter: (name: string) => revealPlain(name, 40) },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: { type: 'category', data: labels, axisLabel: { hideOverlap: true }, axisTick: { alignWithLabel: true } },
      yAxis: { type: 'value', minInterval: 1, name: 'denials', nameTextStyle: { align: 'left' } },
      series: chart.series.map((s, i) => ({
        type: 'bar',
        name: names[i],
        stack: 'denials',
        data: s.counts,
        itemStyle: { color: s.key === null ? OTHER : PALETTE[i % PALETTE.length] },
        emphasis: { focus: 'series' },
        barMaxWidth: 40,
      })),
    };
  }, [chart, names]);
  const total = chart.series.reduce((n, s) => n + s.total, 0);
  const onSelect = (sel: ChartSelection) => {
    const i = names.indexOf(sel.seriesName ?? '');
    if (i < 0 || chart.series[i]!.counts[sel.dataIndex] === 0) return;
    router.push(denialBarHref(chart, chart.series[i]!, sel.dataIndex));
  };
  // Per bar, from the bottom of the stack up: which series it starts with (the test clicks the bottom of a bar).
  const bottom = chart.starts.map((_, b) => chart.series.findIndex((s) => s.counts[b]! > 0));
  return (
    <>
      <div className="chart-controls">
        <span role="group" aria-label="Stack the denials by" className="segmented">
          <span className="muted">Stack by</span>
          {(['guard', 'tool'] as const).map((b) => (
            <button
              key={b}
              type="button"
              className={`button${chart.by === b ? ' active' : ''}`}
              aria-pressed={chart.by === b}
              onClick={() => onBy(b)}
              data-testid={`stack-by-${b}`}
            >
              {b === 'guard' ? 'blocking guard' : 'tool'}
            </button>
          ))}
        </span>
        <label>
          <span className="muted">Bar width </span>
          <select
            value={auto ? '' : String(chart.bucketSeconds)}
            onChange={(e) => onBucket(e.target.value ? Number(e.target.value) : undefined)}
            data-testid="denials-bucket"
          >
            <option value="">automatic ({widthLabel(chart.bucketSeconds)})</option>
            {BUCKET_SECONDS.map((s) => (
              <option key={s} value={s}>
                {widthLabel(s)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {total === 0 ? (
        <p className="empty" data-testid="denials-empty">
          No verified call was denied{chart.untimed ? ` at a known time (${chart.untimed} denials carry no usable timestamp)` : ''}: there is nothing to chart.
        </p>
      ) : (
        <div
          data-testid="denials-chart"
          data-by={chart.by}
          data-bucket-seconds={chart.bucketSeconds}
          data-starts={JSON.stringify(chart.starts)}
          data-totals={JSON.stringify(chart.starts.map((_, b) => chart.series.reduce((n, s) => n + s.counts[b]!, 0)))}
          data-bottom={JSON.stringify(bottom.map((i) => (i < 0 ? null : chart.series[i]!.key)))}
          data-bottom-count={JSON.stringify(bottom.map((i, b) => (i < 0 ? 0 : chart.series[i]!.counts[b])))}
          data-total={total}
        >
          <EChart
            option={option}
            onSelect={onSelect}
            height={DENIALS_HEIGHT}
            label={`Verified denials over time, stacked by ${chart.by === 'guard' ? 'blocking guard' : 'tool'}, in bars of ${widthLabel(chart.bucketSeconds)}`}
            summary={`${total} verified denials in ${chart.starts.length} bars of ${widthLabel(chart.bucketSeconds)}: ${chart.series.map((s, i) => `${names[i]} ${s.total}`).join(', ')}.`}
          />
          <p className="muted chart-note">
            Bars of {widthLabel(chart.bucketSeconds)} (UTC); {chart.series.some((s) => s.key === null) ? 'the less frequent are summed as “other”; ' : ''}click
            a bar to list its denials.
            {chart.untimed > 0 ? ` ${chart.untimed} denials carry no usable timestamp and are not drawn.` : ''}
          </p>
        </div>
      )}
      <div className="tally-pair">
        <TallyTable title="By blocking guard" testId="denials-by-guard" tallies={totals.byGuard} none="(no guard named)" total={totals.denied} />
        <TallyTable title="By tool" testId="denials-by-tool" tallies={totals.byTool} none="(no tool named)" total={totals.denied} />
      </div>
    </>
  );
}

function TallyTable({ title, tallies, none, total, testId }: { title: string; tallies: Tally[]; none: string; total: number; testId: string }) {
  if (tallies.length === 0) return null;
  const shown = tallies.slice(0, 12);
  return (
    <table className="grid compact tally" data-testid={testId}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">{title.replace(/^By /, '')}</th>
          <th scope="col" className="num">
            denials
          </th>
          <th scope="col">share</th>
        </tr>
      </thead>
      <tbody>
        {shown.map((t) => (
          <tr key={t.key} data-key={t.key} data-count={t.count}>
            <th scope="row">
              {t.key === '' ? (
                <span className="muted">{none}</span>
              ) : (
                <code>
                  <SafeText text={t.key} max={60} />
                </code>
              )}
            </th>
            <td className="num">
              <Link href={t.href}>{t.count.toLocaleString('en-US')}</Link>
            </td>
            <td>
              <span className="meter" aria-hidden="true">
                <span style={{ width: `${(100 * t.count) / total}%` }} />
              </span>
            </td>
          </tr>
        ))}
      </tbody>
      {tallies.length > shown.length && (
        <tfoot>
          <tr>
            <td colSpan={3} className="muted">
              and {tallies.length - shown.length} more
            </td>
          </tr>
        </tfoot>
      )}
    </table>
  );
}
