'use client';
// Lays out a graph in the layout worker (ELK, off the main thread), through
// lib/workers/worker-client.ts: a request replaced by a newer one is aborted and
// its answer dropped. The worker lives as long as the component; one that died
// is started again for the next layout.
import { useEffect, useRef, useState } from 'react';
import type { LayoutEdge, LayoutNode, LayoutRequest, LayoutResponse } from '../../../lib/readers/dag-layout';
import { WorkerClient, type WorkerLike, isAborted } from '../../../lib/workers/worker-client';

export type Layout =
  | { status: 'idle' }
  | { status: 'running'; nodes: number }
  | { status: 'done'; xy: Map<string, { x: number; y: number }>; ms: number; nodes: number; width: number; height: number }
  | { status: 'error'; message: string };

type LayoutClient = WorkerClient<LayoutRequest, LayoutResponse>;

/** A layout of the largest graphs the page draws takes seconds; one still running after this never ends. */
const LAYOUT_DEADLINE_MS = 120_000;

/** The bundler sees `new Worker(new URL(…))` here and builds the layout worker as its own script. */
function spawnLayoutWorker(): WorkerLike<LayoutRequest, LayoutResponse> {
  return new Worker(new URL('../../../lib/workers/layout-worker.ts', import.meta.url), { type: 'module' });
}

function startClient(): LayoutClient {
  return new WorkerClient(spawnLayoutWorker(), { name: 'the layout worker', idOf: (m) => m.id, deadlineMs: LAYOUT_DEADLINE_MS });
}

export function useLayout(nodes: LayoutNode[] | null, edges: LayoutEdge[]): Layout {
  const client = useRef<LayoutClient | null>(null);
  const [layout, setLayout] = useState<Layout>({ status: 'idle' });

  useEffect(() => {
    client.current = startClient();
    return () => {
      client.current?.close();
      client.current = null;
    };
  }, []);

  useEffect(() => {
    if (!client.current || !nodes) {
      setLayout({ status: 'idle' });
      return;
    }
    if (client.current.failure) client.current = startClient();
    const abort = new AbortController();
    setLayout({ status: 'running', nodes: nodes.length });
    client.current
      .request((id) => ({ id, nodes, edges }), { signal: abort.signal })
      .then(
        (m) => {
          if (!m.ok) {
            setLayout({ status: 'error', message: m.message });
            return;
          }
          const xy = new Map<string, { x: number; y: number }>();
          nodes.forEach((n, i) => xy.set(n.id, { x: m.xy[2 * i]!, y: m.xy[2 * i + 1]! }));
          setLayout({ status: 'done', xy, ms: m.ms, nodes: nodes.length, width: m.width, height: m.height });
        },
        (e: unknown) => {
          if (!isAborted(e)) setLayout({ status: 'error', message: e instanceof Error ? e.message : 'the layout worker failed' });
        },
      );
    return () => abort.abort();
  }, [nodes, edges]);

  return layout;
}
