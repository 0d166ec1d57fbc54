'use client';
// One Apache ECharts chart (canvas), tree-shaken to the series and components
// the reader views use. The option is the whole chart; `onSelect` gets the
// clicked datum (series name, category name, data index and the datum's
// value) so a chart can filter the explorer. Resizes with its box and with
// the printed page; the `label` is the chart's accessible name, with
// `summary` as a text alternative for screen readers and tests.
import { BarChart, CustomChart, HeatmapChart, LineChart, ScatterChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, MarkLineComponent, TitleComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([
  BarChart,
  CustomChart,
  LineChart,
  ScatterChart,
  HeatmapChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  DataZoomComponent,
  MarkLineComponent,
  TitleComponent,
  VisualMapComponent,
  CanvasRenderer,
]);

export type EChartOption = echarts.EChartsCoreOption;

/** ECharts tooltips are HTML: every piece of text from a log goes through this. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
export interface ChartSelection {
  seriesName?: string;
  name: string;
  dataIndex: number;
  value: unknown;
}

export function EChart({
  option,
  onSelect,
  height = 280,
  label,
  summary,
  testId,
}: {
  option: EChartOption;
  onSelect?: (s: ChartSelection) => void;
  height?: number;
  label: string;
  summary?: string;
  testId?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const select = useRef(onSelect);
  select.current = onSelect;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const c = echarts.init(el, null, { renderer: 'canvas' });
    chart.current = c;
    c.on('click', (p) => {
      const e = p as { seriesName?: string; name: string; dataIndex: number; value: unknown };
      select.current?.({ ...(e.seriesName !== undefined ? { seriesName: e.seriesName } : {}), name: e.name, dataIndex: e.dataIndex, value: e.value });
    });
    const resize = new ResizeObserver(() => c.resize());
    resize.observe(el);
    // Printing lays the page out at the paper's width without telling a ResizeObserver in time:
    // redraw at whatever width the box has when print media starts and ends, so a printed chart
    // fits the page at its own type size. ECharts paints on the next animation frame, after the
    // page is captured: flush paints now.
    const print = window.matchMedia('print');
    const printed = () => {
      c.resize();
      c.getZr().flush();
    };
    print.addEventListener('change', printed);
    return () => {
      print.removeEventListener('change', printed);
      resize.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption({ animation: false, ...option }, { notMerge: true });
  }, [option]);

  return (
    <figure className="chart" data-testid={testId}>
      <div ref={box} role="img" aria-label={label} style={{ height, cursor: onSelect ? 'pointer' : undefined }} />
      {summary && <figcaption className="sr-only">{summary}</figcaption>}
    </figure>
  );
}
