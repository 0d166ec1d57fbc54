'use client';
// The log's checkpoints on its sequence axis, one lane per source: runs of
// verified / failed checkpoints, gaps and overlaps between batches, and the
// uncheckpointed tail, then the failed checkpoints as a table. Plain SVG (no
// chart library is pinned, and a few hundred rects per lane need none): the
// model merges runs, so a million receipts draw as few elements as a hundred.
// Keyboard: Tab to the timeline, ←/→ along a lane, ↑/↓ between lanes,
// Home/End; the segment read out is shown below. Texts from the log are text.
import { type KeyboardEvent, useCallback, useEffect, useMemo, useState } from 'react';
import type { Coverage, CoverageLane, CoverageRun } from '../../lib/overview/checkpoint-coverage';
import {
  describeGap,
  describeLane,
  describeOverlap,
  describeRun,
  describeSchemas,
  describeTail,
  formatRange,
  formatSeq,
} from '../../lib/overview/timeline-labels';
import { reasonWords } from '../../lib/verdict/check-text';
import { SafeText } from '../ui/safe-text';
import { FailedCheckpoints } from './failed-checkpoints';

const WIDTH = 1000;
const HEIGHT = 30;
const BAR = { y: 8, h: 20 };
const BAND = { y: 0, h: 6 };
/** Past this many gaps (or overlaps) a lane draws them as one shape, not one focusable segment each. */
const EACH_UP_TO = 100;

type ItemKind = 'run' | 'gap' | 'overlap' | 'tail';

interface Item {
  id: string;
  kind: ItemKind;
  x: number;
  w: number;
  label: string;
  run?: CoverageRun;
  lane: CoverageLane;
}

function scale(c: Coverage): (seq: bigint) => number {
  const span = Number(c.axis.end - c.axis.start + 1n);
  return (seq) => (Number(seq - c.axis.start) / span) * WIDTH;
}

/** A segment from seq `start` to `end` inclusive, at least `minW` wide (a failed checkpoint among 10,000 must show). */
function box(x: (s: bigint) => number, start: bigint, end: bigint, minW: number): { x: number; w: number } {
  const x0 = x(start);
  const w = x(end + 1n) - x0;
  return w >= minW ? { x: x0, w } : { x: Math.min(Math.max(0, x0 + w / 2 - minW / 2), WIDTH - minW), w: minW };
}

function laneItems(lane: CoverageLane, index: number, c: Coverage): Item[] {
  const x = scale(c);
  const items: Item[] = lane.runs.map((run) => ({
    id: run.id,
    kind: 'run' as const,
    ...box(x, run.start, run.end, run.checkpoints.length === 1 && run.verdict === 'failed' ? 4 : 1.5),
    label: describeRun(run),
    run,
    lane,
  }));
  if (lane.gaps.length <= EACH_UP_TO)
    lane.gaps.forEach((g, i) => items.push({ id: `timeline-gap-${index}-${i}`, kind: 'gap', ...box(x, g.start, g.end, 3), label: describeGap(g), lane }));
  if (lane.overlaps.length <= EACH_UP_TO)
    lane.overlaps.forEach((o, i) =>
      items.push({ id: `timeline-overlap-${index}-${i}`, kind: 'overlap', ...box(x, o.start, o.end, 3), label: describeOverlap(o), lane }),
    );
  if (lane.tail.count > 0) {
    const start = lane.covered ? lane.covered.end + 1n : c.axis.start;
    items.push({ id: `timeline-tail-${index}`, kind: 'tail', ...box(x, start, start + BigInt(lane.tail.count) - 1n, 4), label: describeTail(lane), lane });
  }
  return items.sort((a, b) => a.x - b.x);
}

/** Many gaps or overlaps as one path of rectangles (not focusable; listed in the lane's caption). */
function manyPath(ranges: { start: bigint; end: bigint }[], x: (s: bigint) => number, y: number, h: number): string {
  return ranges
    .map((r) => {
      const b = box(x, r.start, r.end, 1);
      return `M${b.x.toFixed(2)} ${y}h${b.w.toFixed(2)}v${h}h${(-b.w).toFixed(2)}z`;
    })
    .join('');
}

export function CheckpointTimeline({ coverage }: { coverage: Coverage }) {
  const lanes = useMemo(() => coverage.lanes.map((l, i) => laneItems(l, i, coverage)), [coverage]);
  const byId = useMemo(() => new Map(lanes.flatMap((items, li) => items.map((it, ii) => [it.id, { item: it, li, ii }] as const))), [lanes]);
  const [selected, setSelected] = useState<string | null>(null);
  const current = selected !== null && byId.has(selected) ? selected : (lanes.find((l) => l.length > 0)?.[0]?.id ?? null);

  const focusItem = useCallback((id: string) => {
    setSelected(id);
    (document.getElementById(id) as SVGElement | null)?.focus();
  }, []);

  // A problem's link (#checkpoint-…) selects and focuses its segment, also when the page opens on it.
  useEffect(() => {
    const onHash = () => {
      // Anchor ids are plain ASCII; a hash typed with a broken %-escape simply matches nothing.
      const id = window.location.hash.slice(1);
      if (byId.has(id)) focusItem(id);
    };
    onHash();
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [byId, focusItem]);

  const onKey = (e: KeyboardEvent<SVGSVGElement>) => {
    const at = current ? byId.get(current) : undefined;
    if (!at) return;
    const lane = lanes[at.li]!;
    let next: Item | undefined;
    if (e.key === 'ArrowRight') next = lane[at.ii + 1];
    else if (e.key === 'ArrowLeft') next = lane[at.ii - 1];
    else if (e.key === 'Home') next = lane[0];
    else if (e.key === 'End') next = lane[lane.length - 1];
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const step = e.key === 'ArrowDown' ? 1 : -1;
      for (let li = at.li + step; li >= 0 && li < lanes.length && !next; li += step) {
        next = lanes[li]!.reduce<Item | undefined>((best, it) => (!best || Math.abs(it.x - at.item.x) < Math.abs(best.x - at.item.x) ? it : best), undefined);
      }
    } else return;
    e.preventDefault();
    if (next) focusItem(next.id);
  };

  const sel = current ? byId.get(current)?.item : undefined;
  return (
    <section className="timeline" data-testid="checkpoint-timeline" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Checkpoints on the log</h2>
      <svg width="0" height="0" aria-hidden="true" focusable="false" style={{ position: 'absolute' }}>
        <defs>
          <pattern id="timeline-hatch-tail" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <rect width="6" height="6" className="hatch-bg" />
            <rect width="2.5" height="6" className="hatch-tail" />
          </pattern>
          <pattern id="timeline-hatch-gap" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">
            <rect width="2.5" height="6" className="hatch-gap" />
          </pattern>
        </defs>
      </svg>
      <Legend
        mixed={coverage.lanes.some((l) => l.runs.some((r) => r.verdict === 'mixed'))}
        unpinned={coverage.lanes.some((l) => l.runs.some((r) => r.verdict === 'unpinned'))}
      />
      {coverage.lanes.length === 0 && <p className="muted">The log has no checkpoints and no uncheckpointed receipts.</p>}
      {coverage.lanes.map((lane, li) => (
        <Lane key={lane.key} lane={lane} items={lanes[li]!} coverage={coverage} current={current} chosen={selected} onSelect={focusItem} onKey={onKey} />
      ))}
      <div className="timeline-selection" aria-live="polite" data-testid="timeline-selection">
        {sel ? <Selected item={sel} /> : null}
      </div>
      <FailedCheckpoints coverage={coverage} />
    </section>
  );
}

function Legend({ mixed, unpinned }: { mixed: boolean; unpinned: boolean }) {
  const swatch = (cls: string, text: string) => (
    <span className="legend-item">
      <svg width="14" height="10" aria-hidden="true" focusable="false">
        <rect width="14" height="10" className={cls} />
      </svg>{' '}
      {text}
    </span>
  );
  return (
    <p className="legend muted">
      {swatch('seg verified', 'verified')} {unpinned && swatch('seg unpinned', 'intact, signer not pinned')} {swatch('seg failed', 'failed')}{' '}
      {mixed && swatch('seg mixed', 'verified and failed, pooled')} {swatch('seg gap', 'gap (no checkpoint)')}{' '}
      {swatch('seg overlap', 'overlap (claimed twice)')} {swatch('seg tail', 'uncheckpointed tail')}
    </p>
  );
}

function Lane({
  lane,
  items,
  coverage,
  current,
  chosen,
  onSelect,
  onKey,
}: {
  lane: CoverageLane;
  items: Item[];
  coverage: Coverage;
  /** The segment in the tab order, and the one the reader picked (if any). */
  current: string | null;
  chosen: string | null;
  onSelect: (id: string) => void;
  onKey: (e: KeyboardEvent<SVGSVGElement>) => void;
}) {
  const x = scale(coverage);
  const caption = describeLane(lane);
  const schemas = useMemo(() => describeSchemas(lane.runs.flatMap((r) => r.checkpoints)), [lane]);
  return (
    <div
      className="timeline-lane"
      data-testid="timeline-lane"
      data-file={lane.label}
      data-checkpoints={lane.checkpoints}
      data-failed={lane.failed}
      data-tail={lane.tail.count}
    >
      <p className="lane-caption">
        <code>
          <SafeText text={lane.label} max={120} />
        </code>
        : {caption}
      </p>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="group" aria-label={`${lane.label}: ${caption}`} onKeyDown={onKey}>
        <rect className="lane-bg" x="0" y={BAR.y} width={WIDTH} height={BAR.h} />
        {lane.gaps.length > EACH_UP_TO && (
          <path className="seg gap" d={manyPath(lane.gaps, x, BAR.y, BAR.h)}>
            <title>{`${lane.gaps.length} gaps`}</title>
          </path>
        )}
        {lane.overlaps.length > EACH_UP_TO && (
          <path className="seg overlap" d={manyPath(lane.overlaps, x, BAND.y, BAND.h)}>
            <title>{`${lane.overlaps.length} overlaps`}</title>
          </path>
        )}
        {items.map((it) => (
          // biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: a chart segment is announced as a labelled image; the roving tabindex only selects it, and the selection is described beside the chart
          <rect
            key={it.id}
            id={it.id}
            className={`seg ${it.kind === 'run' ? it.run!.verdict : it.kind}${it.kind === 'run' && it.w > 6 ? ' edged' : ''}${it.id === chosen ? ' chosen' : ''}`}
            x={it.x}
            y={it.kind === 'overlap' ? BAND.y : BAR.y}
            width={it.w}
            height={it.kind === 'overlap' ? BAND.h : BAR.h}
            tabIndex={it.id === current ? 0 : -1}
            role="img"
            aria-label={it.label}
            data-testid={`timeline-${it.kind}`}
            data-verdict={it.run?.verdict}
            data-count={it.kind === 'run' ? it.run!.checkpoints.length : it.kind === 'tail' ? lane.tail.count : undefined}
            onFocus={() => onSelect(it.id)}
            onClick={() => onSelect(it.id)}
          >
            <title>{it.label}</title>
          </rect>
        ))}
      </svg>
      <div className="axis muted" aria-hidden="true">
        <span>seq {formatSeq(coverage.axis.start)}</span>
        <span>
          {lane.covered ? `last checkpointed: seq ${formatSeq(lane.covered.end)}` : 'no checkpoints'}
          {lane.tail.count > 0 ? ` · tail: ${lane.tail.count.toLocaleString('en-US')} uncheckpointed` : ''}
        </span>
      </div>
      {lane.gaps.length > 0 && (
        <p className="muted lane-note">
          Gaps: {lane.gaps.slice(0, 10).map(formatRange).join(', ')}
          {lane.gaps.length > 10 ? `, and ${lane.gaps.length - 10} more` : ''}.
        </p>
      )}
      {lane.overlaps.length > 0 && (
        <p className="muted lane-note">
          Overlaps: {lane.overlaps.slice(0, 10).map(formatRange).join(', ')}
          {lane.overlaps.length > 10 ? `, and ${lane.overlaps.length - 10} more` : ''}.
        </p>
      )}
      {schemas && (
        <p className="muted lane-note" data-testid="timeline-schemas">
          Schemas: {schemas}
        </p>
      )}
    </div>
  );
}

function Selected({ item }: { item: Item }) {
  const cps = item.run?.checkpoints ?? [];
  const failed = cps.length > 1 ? cps.filter((c) => c.verdict === 'failed') : [];
  return (
    <>
      <p>
        <strong>{item.label}</strong>
      </p>
      {cps.length === 1 && (
        <p className="muted">
          Schema{' '}
          <code>
            <SafeText text={cps[0]!.schema} max={80} />
          </code>
          {cps[0]!.schema.endsWith('.v2')
            ? ': the kernel signs a chain_root over every checkpoint since the first, so this one also commits to all before it.'
            : '.'}
        </p>
      )}
      {cps.length === 1 && (
        <ul className="checklist">
          {Object.entries(cps[0]!.checks).map(([name, status]) => (
            <li key={name} className={status}>
              <strong>{status}</strong> {name}
              {cps[0]!.details?.[name] ? (
                <span className="muted">
                  {' '}
                  — <SafeText text={reasonWords(cps[0]!.details[name])} max={300} />
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {failed.length > 0 && (
        <p>
          Failed in this run:{' '}
          {failed
            .slice(0, 20)
            .map((c) => `checkpoint ${formatSeq(c.checkpoint_seq)}`)
            .join(', ')}
          {failed.length > 20 ? `, and ${failed.length - 20} more (see the table below)` : ''}.
        </p>
      )}
    </>
  );
}
