'use client';
// What the checkpoints cover: the share of verified receipts a signed
// checkpoint vouches for, the uncheckpointed tail, receipts a missing or
// failed checkpoint leaves uncovered (these are not verified), per time
// bucket as a chart, and the log's checkpoints on its sequence axis (the
// overview's timeline, reused: checkpoints carry no time in the report).
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useMemo } from 'react';
import { buildCoverage } from '../../../lib/overview/checkpoint-coverage';
import { type ComplianceSelection, explorerLink } from '../../../lib/readers/compliance';
import type { CoverageOverTime, RangeReport } from '../../../lib/readers/compliance-report';
import type { VerificationReport } from '../../../lib/verdict/report';
import { EChart, type EChartOption } from '../../charts/echart';
import { formatTime } from '../../explorer/format';
import { CheckpointTimeline } from '../../overview/checkpoint-timeline';

const fmt = (n: number) => n.toLocaleString('en-US');
const pct = (n: number, of: number) => (of === 0 ? '–' : `${((100 * n) / of).toFixed(n === of || n === 0 ? 0 : 1)}%`);

function widthLabel(s: number): string {
  if (s % 86400 === 0) return s === 86400 ? 'day' : `${s / 86400} days`;
  if (s % 3600 === 0) return s === 3600 ? 'hour' : `${s / 3600} hours`;
  return s === 60 ? 'minute' : `${s / 60} minutes`;
}

export function CoverageSection({
  report,
  summary,
  overTime,
  selection,
}: {
  report: VerificationReport;
  summary: RangeReport;
  overTime: CoverageOverTime | null;
  selection: ComplianceSelection;
}) {
  const router = useRouter();
  const coverage = useMemo(() => buildCoverage(report), [report]);
  const v = summary.inclusion.verified;
  const nv = summary.inclusion.notVerified;
  const verified = summary.verdicts.verified;
  const gaps = coverage.lanes.reduce((n, l) => n + l.gaps.length, 0);
  const option = useMemo<EChartOption | null>(() => {
    if (!overTime || overTime.starts.length === 0) return null;
    const labels = overTime.starts.map((s) => formatTime(s).slice(overTime.width >= 86400 ? 0 : 5, overTime.width >= 86400 ? 10 : 16));
    return {
      grid: { left: 56, right: 16, top: 36, bottom: 40 },
      // Mid greys read on the light and the dark page alike.
      legend: { top: 0, data: ['in a signed checkpoint', 'uncheckpointed tail'], textStyle: { color: '#8c959f' } },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: { type: 'category', data: labels, axisLabel: { hideOverlap: true } },
      yAxis: { type: 'value', name: 'receipts', minInterval: 1, splitLine: { lineStyle: { opacity: 0.3 } } },
      series: [
        { name: 'in a signed checkpoint', type: 'bar', stack: 'c', data: overTime.checkpointed, itemStyle: { color: '#1a7f37' }, barCategoryGap: '15%' },
        { name: 'uncheckpointed tail', type: 'bar', stack: 'c', data: overTime.tail, itemStyle: { color: '#8c959f' } },
      ],
    };
  }, [overTime]);

  return (
    <section className="report-section" aria-labelledby="coverage-heading" data-testid="coverage-section">
      <h2 id="coverage-heading">What the checkpoints cover</h2>
      <p className="lede">
        A signed checkpoint fixes a batch of tool receipts in a Merkle tree: a receipt in one cannot be changed or removed without it showing. The
        uncheckpointed <em>tail</em> (tool receipts after the last checkpoint, and child receipts, which kernels do not checkpoint) is signed, but nothing yet
        vouches that the log keeps it.
      </p>
      <dl className="counts">
        <div>
          <dt>in a signed checkpoint</dt>
          <dd data-testid="coverage-checkpointed">{fmt(v.checkpointed)}</dd>
          <dd className="muted small">
            {pct(v.checkpointed, verified)} of {fmt(verified)} verified
          </dd>
        </div>
        <div>
          <dt>uncheckpointed tail</dt>
          <dd data-testid="coverage-tail">{fmt(v.tail)}</dd>
          <dd className="muted small" data-testid="coverage-tail-types">
            {pct(v.tail, verified)} of verified
            {v.tail > 0
              ? `: ${Object.entries(summary.tailByType)
                  .sort((a, b) => b[1] - a[1])
                  .map(([t, n]) => `${fmt(n)} ${t}`)
                  .join(', ')}`
              : ''}
          </dd>
        </div>
        <div>
          <dt>gaps between checkpoints</dt>
          <dd data-testid="coverage-gaps">{fmt(gaps)}</dd>
          <dd className="muted small">in the whole log</dd>
        </div>
      </dl>
      {nv.notCovered + nv.failed > 0 && (
        <p className="banner warn" data-testid="coverage-uncovered">
          {[
            nv.notCovered > 0 &&
              `${fmt(nv.notCovered)} receipt${nv.notCovered === 1 ? ' is' : 's are'} not covered although later receipts are (a checkpoint is missing or failed)`,
            nv.failed > 0 && `${fmt(nv.failed)} receipt${nv.failed === 1 ? '' : 's'} failed the inclusion proof`,
          ]
            .filter(Boolean)
            .join('; ')}
          : these are not verified and not counted here.{' '}
          <Link href="/receipts?verdict=unverified&verdict=failed" className="no-print">
            See them
          </Link>
        </p>
      )}
      {option && overTime && (
        <EChart
          option={option}
          height={240}
          label={`Verified receipts per ${widthLabel(overTime.width)}: in a signed checkpoint, and in the uncheckpointed tail`}
          summary={`${fmt(v.checkpointed)} verified receipts in a signed checkpoint and ${fmt(v.tail)} in the uncheckpointed tail, per ${widthLabel(overTime.width)}`}
          testId="coverage-chart"
          onSelect={(s) => {
            const start = overTime.starts[s.dataIndex];
            if (start === undefined) return;
            router.push(explorerLink(selection, {}, { since: start, until: start + overTime.width - 1 }));
          }}
        />
      )}
      {option && overTime && (
        <p className="muted small chart-note">
          Verified receipts per {widthLabel(overTime.width)} (UTC).<span className="no-print"> Click a bar to see its receipts.</span>
        </p>
      )}
      <div className="seq-coverage">
        <p className="muted small">
          The log’s checkpoints on its sequence axis, whole log ({fmt(summary.checkpoints.verified)} of {fmt(summary.checkpoints.total)} checkpoints verified; a
          checkpoint carries no time, so this part is not narrowed to the range):
        </p>
        <CheckpointTimeline coverage={coverage} />
      </div>
    </section>
  );
}
