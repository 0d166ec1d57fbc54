'use client';
// Which policy hash was in force when: one lane per policy on a time axis,
// a bar per span (ECharts custom series), overlaps named in words, and a
// table of the policies. Clicking a span opens the explorer on that span's
// receipts; choosing a policy narrows the whole page (and the URL) to it.
import Link from 'next/link';
import { clipText, revealPlain } from '../../../lib/text/reveal';
import { useRouter } from 'next/navigation';
import { useMemo } from 'react';
import { type ComplianceSelection, type PolicyTimeline, explorerLink } from '../../../lib/readers/compliance';
import { EChart, type EChartOption, escapeHtml } from '../../charts/echart';
import { formatTime } from '../../explorer/format';
import { type PolicyNames, policyColor, policyLabel, shortHash } from './policy-names';
import { SafeText } from '../../ui/safe-text';

/** Lanes drawn; further policies are listed in the table only. */
const MAX_LANES = 16;
const fmt = (n: number) => n.toLocaleString('en-US');
const utc = (s: number) => `${formatTime(s)} UTC`;

interface SpanDatum {
  value: [number, number, number, number];
  itemStyle: { color: string; opacity: number };
}

export function PolicySection({
  timeline,
  names,
  selection,
  onSelect,
}: {
  timeline: PolicyTimeline;
  names: PolicyNames;
  selection: ComplianceSelection;
  onSelect: (s: ComplianceSelection) => void;
}) {
  const router = useRouter();
  const lanes = timeline.policies.slice(0, MAX_LANES);
  const spans = useMemo(() => timeline.spans.filter((s) => lanes.some((l) => l.policy === s.policy)), [timeline, lanes]);
  // The axis spans exactly the drawn receipts (first second to the end of the last).
  const extent = useMemo(() => ({ min: Math.min(...spans.map((s) => s.start)), max: Math.max(...spans.map((s) => s.end)) + 1 }), [spans]);
  const option = useMemo<EChartOption>(() => {
    const laneOf = new Map(lanes.map((p, i) => [p.policy, i]));
    const data: SpanDatum[] = spans.map((s) => ({
      // [lane, start ms, end ms (at least one second wide), receipts]
      value: [laneOf.get(s.policy)!, s.start * 1000, (s.end + 1) * 1000, s.receipts],
      itemStyle: { color: policyColor(names, s.policy), opacity: selection.policy === undefined || selection.policy === s.policy ? 0.95 : 0.25 },
    }));
    // Labels in UTC, as every time on the page: days over days, minutes over hours, seconds over minutes.
    const width = extent.max - extent.min;
    const [from, to] = width > 2 * 86400 ? [5, 10] : width > 2 * 3600 ? [11, 16] : [11, 19];
    return {
      useUTC: true,
      grid: { left: 96, right: 24, top: 8, bottom: 36 },
      tooltip: {
        trigger: 'item',
        formatter: (p: { dataIndex: number }) => {
          const s = spans[p.dataIndex]!;
          return `${escapeHtml(policyLabel(names, s.policy))}<br/>${utc(s.start)} → ${utc(s.end)}<br/>${fmt(s.receipts)} verified receipts<br/><i>click: open them in the explorer</i>`;
        },
      },
      xAxis: {
        type: 'time',
        min: extent.min * 1000,
        max: extent.max * 1000,
        axisLabel: { hideOverlap: true, formatter: (ms: number) => new Date(ms).toISOString().slice(from, to) },
        splitLine: { show: true, lineStyle: { opacity: 0.3 } },
      },
      yAxis: {
        type: 'category',
        inverse: true,
        data: lanes.map((p) => `Policy ${names.get(p.policy) ?? '?'}\n${revealPlain(clipText(p.policy, 8).shown, Infinity)}`),
        axisTick: { show: false },
        axisLabel: { fontSize: 11, lineHeight: 14 },
      },
      series: [
        {
          type: 'custom',
          encode: { x: [1, 2], y: 0 },
          data,
          renderItem: (
            _params: unknown,
            api: {
              value: (i: number) => number;
              coord: (v: [number, number]) => [number, number];
              size: (v: [number, number]) => [number, number];
              style: () => object;
            },
          ) => {
            const lane = api.value(0);
            const [x0, y] = api.coord([api.value(1), lane]);
            const [x1] = api.coord([api.value(2), lane]);
            const h = api.size([0, 1])[1] * 0.55;
            return { type: 'rect', shape: { x: x0, y: y - h / 2, width: Math.max(x1 - x0, 3), height: h, r: 2 }, style: api.style() };
          },
        },
      ],
    };
  }, [spans, lanes, names, selection.policy, extent]);

  const summaryText = timeline.policies
    .map(
      (p) =>
        `${policyLabel(names, p.policy)}: ${fmt(p.receipts)} verified receipts in ${p.spans.length} span${p.spans.length === 1 ? '' : 's'}, ${utc(p.first)} to ${utc(p.last)}`,
    )
    .join('; ');
  return (
    <section className="report-section" aria-labelledby="policy-heading" data-testid="policy-section">
      <h2 id="policy-heading">Which policy was in force when</h2>
      <p className="lede">
        Every receipt names the policy (by its hash) the kernel applied.{' '}
        {timeline.policies.length === 0 ? (
          'No verified receipt is in this range.'
        ) : (
          <>
            {fmt(timeline.policies.length)} polic{timeline.policies.length === 1 ? 'y was' : 'ies were'} in force here.{' '}
            {timeline.overlapCount === 0 ? (
              'They followed one another: no two were in use at the same time.'
            ) : (
              <strong>
                {timeline.overlapCount === 1
                  ? 'Two policies were in use at the same time once'
                  : `Policies were in use at the same time ${fmt(timeline.overlapCount)}${timeline.overlapCapped ? '+' : ''} times`}{' '}
                (see below).
              </strong>
            )}
          </>
        )}
      </p>
      {timeline.policies.length > 0 && (
        <div className="policy-chart" data-min={extent.min} data-max={extent.max} data-lanes={lanes.length} data-grid="96 24 8 36">
          <EChart
            option={option}
            height={Math.max(120, 50 + lanes.length * 42)}
            label="Policy timeline: one lane per policy, a bar for each span of time its receipts cover"
            summary={summaryText}
            testId="policy-chart"
            onSelect={(s) => {
              const span = spans[s.dataIndex];
              if (span) router.push(explorerLink({ ...selection, policy: span.policy }, {}, { since: span.start, until: span.end }));
            }}
          />
        </div>
      )}
      {timeline.policies.length > MAX_LANES && (
        <p className="muted">
          The chart draws the first {MAX_LANES} policies; all {fmt(timeline.policies.length)} are in the table.
        </p>
      )}
      {timeline.overlaps.length > 0 && (
        <div className="banner warn" data-testid="policy-overlaps">
          <p>
            <strong>Overlaps.</strong> In these windows receipts under two policies were logged side by side (two kernels on different policies, or requests
            begun under the old policy that finished after a switch):
          </p>
          <ul>
            {timeline.overlaps.slice(0, 8).map((o) => (
              <li key={`${o.policies.join()}-${o.start}`}>
                {policyLabel(names, o.policies[0])} and {policyLabel(names, o.policies[1])}: {utc(o.start)} → {utc(o.end)}
              </li>
            ))}
          </ul>
          {timeline.overlapCount > 8 && (
            <p>
              and {fmt(timeline.overlapCount - 8)}
              {timeline.overlapCapped ? '+' : ''} more.
            </p>
          )}
        </div>
      )}
      {timeline.policies.length > 0 && (
        <table className="grid compact policies" data-testid="policy-table">
          <thead>
            <tr>
              <th scope="col">policy</th>
              <th scope="col">in force (first → last receipt)</th>
              <th scope="col" className="num">
                spans
              </th>
              <th scope="col" className="num">
                verified receipts
              </th>
              <th scope="col">of which</th>
              <th scope="col" className="no-print">
                show
              </th>
            </tr>
          </thead>
          <tbody>
            {timeline.policies.map((p) => (
              <tr
                key={p.policy}
                data-policy={p.policy}
                data-receipts={p.receipts}
                data-spans={p.spans.length}
                data-first={p.first}
                data-last={p.last}
                className={selection.policy === p.policy ? 'chosen' : undefined}
              >
                <th scope="row">
                  <span className="swatch" style={{ background: policyColor(names, p.policy) }} aria-hidden="true" /> {`Policy ${names.get(p.policy) ?? '?'}`}
                  <br />
                  <code className="hash" title={revealPlain(p.policy, 200)}>
                    <SafeText text={p.policy === '' ? '(empty)' : p.policy} max={200} />
                  </code>
                </th>
                <td>
                  {utc(p.first)} →<br />
                  {utc(p.last)}
                </td>
                <td className="num">{p.spans.length}</td>
                <td className="num">
                  <Link href={explorerLink({ ...selection, policy: p.policy })} data-testid="policy-explorer">
                    {fmt(p.receipts)}
                  </Link>
                </td>
                <td>
                  {Object.entries(p.byType)
                    .sort((a, b) => b[1] - a[1])
                    .map(([t, n]) => `${fmt(n)} ${t}`)
                    .join(', ')}
                </td>
                <td className="no-print">
                  {selection.policy === p.policy ? (
                    <button type="button" className="button active" onClick={() => onSelect(without(selection))}>
                      every policy
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="button"
                      data-testid="policy-choose"
                      onClick={() => onSelect({ ...selection, policy: p.policy })}
                      title={`Narrow this page to ${shortHash(p.policy)}`}
                    >
                      only this
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {timeline.untimed > 0 && (
        <p className="muted">{fmt(timeline.untimed)} verified receipts carry no usable time and are not on the chart (they are in the table’s counts).</p>
      )}
      <p className="muted small">
        A span ends when {fmt(timeline.breakAfter)} receipts under other policies pass without one under it; a policy that returns after that starts a new span.
      </p>
    </section>
  );
}

function without(sel: ComplianceSelection): ComplianceSelection {
  const { policy: _, ...rest } = sel;
  return rest;
}
