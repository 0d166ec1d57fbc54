// The delegation lineage behind the DAG's capabilities (issue 5, item 1; verification-v2.md
// §5.3.1): each capability used and its ancestors by parent_capability_id, cycle-safe and
// capped. Lineage rows are the sources' claims, unsigned context here: the view says so. Pure.
import type { CapabilityLineage } from '../sources/lineage';

export interface LineageNode {
  capabilityId: string;
  /** Verified tool receipts of the drawn graph made under this capability (0 for an ancestor only). */
  used: number;
  /** The lineage row, when the sources carry one. */
  row?: CapabilityLineage;
}

export interface LineageGraph {
  nodes: LineageNode[];
  /** parent capability → delegated capability. */
  edges: { id: string; source: string; target: string }[];
  /** Capabilities used whose lineage the sources do not carry. */
  unknown: string[];
  /** A parent named by a row but absent from the lineage. */
  missingParents: string[];
}

/**
 * The delegation chains behind `used` capabilities: each capability and its
 * ancestors by parent_capability_id (cycle-safe; at most `max` nodes).
 * Lineage is unsigned context: the view says so.
 */
export function lineageGraph(used: ReadonlyMap<string, number>, lineage: readonly CapabilityLineage[], max = 500): LineageGraph {
  const byId = new Map<string, CapabilityLineage>();
  for (const l of lineage) if (!byId.has(l.capabilityId)) byId.set(l.capabilityId, l);
  const nodes = new Map<string, LineageNode>();
  const edges = new Map<string, { id: string; source: string; target: string }>();
  const unknown: string[] = [];
  const missing = new Set<string>();
  const ids = [...used.keys()].sort();
  for (const id of ids) {
    if (!byId.has(id)) unknown.push(id);
    let at: string | null = id;
    const seen = new Set<string>();
    while (at !== null && !seen.has(at) && nodes.size < max) {
      seen.add(at);
      const row = byId.get(at);
      const existing = nodes.get(at);
      if (existing) {
        if (at === id) existing.used = used.get(id)!;
      } else nodes.set(at, { capabilityId: at, used: at === id ? used.get(id)! : 0, ...(row ? { row } : {}) });
      const p: string | null = row?.parentCapabilityId ?? null;
      if (p !== null) {
        if (!byId.has(p)) missing.add(p);
        edges.set(`${p}>${at}`, { id: `${p}>${at}`, source: p, target: at });
        if (!byId.has(p) && !nodes.has(p) && nodes.size < max) nodes.set(p, { capabilityId: p, used: used.get(p) ?? 0 });
      }
      at = p !== null && byId.has(p) ? p : null;
    }
  }
  const list = [...nodes.values()].sort((a, b) => (a.row?.delegationDepth ?? 0) - (b.row?.delegationDepth ?? 0) || (a.capabilityId < b.capabilityId ? -1 : 1));
  const present = new Set(list.map((n) => n.capabilityId));
  return {
    nodes: list,
    edges: [...edges.values()].filter((e) => present.has(e.source) && present.has(e.target)),
    unknown,
    missingParents: [...missing].sort(),
  };
}
