// Automatic layered layout of a DAG view's nodes (ELK, run off the main
// thread by lib/workers/layout-worker.ts, and in Node by scripts/bench-dag.ts):
// the request and the answer of one layout, and how they map to and from
// ELK's graph JSON. Requests flow left to right, a parent before its children.
// Pure (ELK itself is passed in).

export interface LayoutNode {
  id: string;
  width: number;
  height: number;
}

export interface LayoutEdge {
  id: string;
  source: string;
  target: string;
}

export interface LayoutRequest {
  id: number;
  nodes: LayoutNode[];
  edges: LayoutEdge[];
}

export type LayoutResponse =
  | { id: number; ok: true /** x, y of each requested node, in request order. */; xy: Float64Array; width: number; height: number; ms: number }
  | { id: number; ok: false; message: string };

/**
 * ELK options: layered (Sugiyama), left to right, compact spacing. Request
 * trees have no crossings to minimise, so the crossing minimiser's extra
 * sweeps are turned down (thoroughness 1, no greedy switch): the same picture
 * in about half the time (scripts/bench-dag.ts).
 */
export const ELK_OPTIONS: Record<string, string> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.layered.thoroughness': '1',
  'elk.layered.crossingMinimization.greedySwitch.type': 'OFF',
  'elk.spacing.nodeNode': '14',
  'elk.layered.spacing.nodeNodeBetweenLayers': '56',
  'elk.layered.spacing.edgeNodeBetweenLayers': '20',
  'elk.separateConnectedComponents': 'true',
  'elk.spacing.componentComponent': '36',
  'elk.edgeRouting': 'POLYLINE',
};

interface ElkNodeOut {
  id: string;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
}
interface ElkGraphOut {
  children?: ElkNodeOut[];
  width?: number;
  height?: number;
}

/** The minimal ELK API used (elkjs `ELK#layout`). */
export interface ElkLike {
  layout(graph: object): Promise<ElkGraphOut>;
}

export function elkGraph(req: Pick<LayoutRequest, 'nodes' | 'edges'>): object {
  return {
    id: 'root',
    layoutOptions: ELK_OPTIONS,
    children: req.nodes.map((n) => ({ id: n.id, width: n.width, height: n.height })),
    edges: req.edges.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  };
}

/** Lays out `req` with `elk`; never rejects. */
export async function runLayout(elk: ElkLike, req: LayoutRequest, now: () => number): Promise<LayoutResponse> {
  const started = now();
  try {
    const out = await elk.layout(elkGraph(req));
    const at = new Map<string, ElkNodeOut>();
    for (const c of out.children ?? []) at.set(c.id, c);
    const xy = new Float64Array(req.nodes.length * 2);
    req.nodes.forEach((n, i) => {
      const c = at.get(n.id);
      xy[2 * i] = c?.x ?? 0;
      xy[2 * i + 1] = c?.y ?? 0;
    });
    return { id: req.id, ok: true, xy, width: out.width ?? 0, height: out.height ?? 0, ms: Math.round(now() - started) };
  } catch (err) {
    return { id: req.id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}
