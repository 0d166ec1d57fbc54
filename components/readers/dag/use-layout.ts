'use client';
// Lays out a graph in the layout worker (ELK, off the main thread). The
// answer to a request that has since been replaced is dropped; the worker
// lives as long as the component.
import { useEffect, useRef, useState } from 'react';
import type { LayoutEdge, LayoutNode, LayoutResponse } from '../../../lib/readers/dag-layout';

export type Layout =
  | { status: 'idle' }
  | { status: 'running'; nodes: number }
  | { status: 'done'; xy: Map<string, { x: number; y: number }>; ms: number; nodes: number; width: number; height: number }
  | { status: 'error'; message: string };

export function useLayout(nodes: LayoutNode[] | null, edges: LayoutEdge[]): Layout {
  const worker = useRef<Worker | null>(null);
  const next = useRef(0);
  const [layout, setLayout] = useState<Layout>({ status: 'idle' });

  useEffect(() => {
    const w = new Worker(new URL('../../../lib/workers/layout-worker.ts', import.meta.url), { type: 'module' });
    worker.current = w;
    return () => {
      w.terminate();
      worker.current = null;
    };
  }, []);

  useEffect(() => {
    const w = worker.current;
    if (!w || !nodes) {
      setLayout({ status: 'idle' });
      return;
    }
    const id = ++next.current;
    setLayout({ status: 'running', nodes: nodes.length });
    const onMessage = (e: MessageEvent<LayoutResponse>) => {
      const m = e.data;
      if (m.id !== id) return;
      if (!m.ok) {
        setLayout({ status: 'error', message: m.message });
        return;
      }
      const xy = new Map<string, { x: number; y: number }>();
      nodes.forEach((n, i) => xy.set(n.id, { x: m.xy[2 * i]!, y: m.xy[2 * i + 1]! }));
      setLayout({ status: 'done', xy, ms: m.ms, nodes: nodes.length, width: m.width, height: m.height });
    };
    const onError = (e: ErrorEvent) => setLayout({ status: 'error', message: e.message || 'the layout worker failed' });
    w.addEventListener('message', onMessage);
    w.addEventListener('error', onError);
    w.postMessage({ id, nodes, edges });
    return () => {
      w.removeEventListener('message', onMessage);
      w.removeEventListener('error', onError);
    };
  }, [nodes, edges]);

  return layout;
}
