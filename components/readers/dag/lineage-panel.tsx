'use client';
// The DAG page's lineage panel (/dag): who granted the capabilities the drawn receipts used, as a
// graph of delegations, each link marked signed and verified, failed, or unsigned context
// (lib/readers/lineage-graph.ts, lib/readers/lineage-status.ts). A click opens the explorer.
import type { Node, NodeMouseHandler, NodeTypes } from '@xyflow/react';
import { useRouter } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import type { DagGraph } from '../../../lib/readers/dag';
import { type LineageGraph, lineageGraph } from '../../../lib/readers/lineage-graph';
import { lineageVerdicts, linkStatus } from '../../../lib/readers/lineage-status';
import type { LineageSet } from '../../../lib/sources/lineage';
import type { ReportLineage } from '../../../lib/verdict/report';
import { CAPABILITY_SIZE, type CapabilityData, CapabilityNodeView } from './dag-nodes';
import { explorerHref, plural } from './dag-format';
import { type CanvasEdge, type CanvasNode, GraphCanvas } from './graph-canvas';

const LINEAGE_NODE_TYPES: NodeTypes = { capability: CapabilityNodeView };

export function LineagePanel({ graph, lineage, verdicts }: { graph: DagGraph; lineage: LineageSet | null; verdicts: readonly ReportLineage[] | undefined }) {
  const router = useRouter();
  const lg: LineageGraph | null = useMemo(() => (lineage ? lineageGraph(graph.capabilities, lineage.entries) : null), [graph, lineage]);
  const byRow = useMemo(() => lineageVerdicts(verdicts), [verdicts]);
  const nodes = useMemo<CanvasNode<CapabilityData>[]>(
    () =>
      lg
        ? lg.nodes.map((n) => ({
            id: n.capabilityId,
            type: 'capability',
            data: (n.row ? { ...n, status: linkStatus(n.row, byRow) } : n) as CapabilityData,
            ...CAPABILITY_SIZE,
          }))
        : [],
    [lg, byRow],
  );
  const edges = useMemo<CanvasEdge[]>(() => (lg ? lg.edges.map((e) => ({ ...e })) : []), [lg]);
  const onNodeClick = useCallback<NodeMouseHandler<Node<CapabilityData>>>(
    (_e, node) => router.push(explorerHref({ capabilityId: [node.data.capabilityId] })),
    [router],
  );
  const used = graph.capabilities.size;
  return (
    <section
      className="dag-lineage"
      aria-label="Capability lineage"
      data-testid="dag-lineage"
      data-capabilities={used}
      data-lineage-rows={lineage?.entries.length ?? 0}
    >
      <h2>Who granted the capabilities {graph.session === null ? 'these sessions' : 'this session'} used</h2>
      <p className="muted">
        From the capability lineage the log&apos;s package or store carries: which capability was delegated from which, to whom. A row that carries its
        capability token, signed by the issuer, is checked against it: <strong>signed and verified</strong>, or <strong>failed</strong> with the reason. Any
        other row is <strong>unsigned context</strong>, not evidence; an unsigned federation anchor only marks where a delegation crossed from another
        federation. Click a capability to see its receipts in the explorer.
      </p>
      {used === 0 ? (
        <p data-testid="dag-lineage-empty">
          {graph.session === null ? 'No verified tool receipt of any session' : 'No verified tool receipt of this session'} names a capability (child receipts
          do not carry one), so there is no delegation to show.
        </p>
      ) : !lineage || lineage.entries.length === 0 ? (
        <p data-testid="dag-lineage-empty">
          The tool receipts here use {plural(used, 'capability', 'capabilities')}, but the log carries no capability lineage (no{' '}
          <code>capability-lineage.ndjson</code> or <code>capability_lineage</code> table), so who delegated them is not known from it.
        </p>
      ) : (
        <>
          {lg!.unknown.length > 0 && (
            <p className="banner warn">
              {plural(lg!.unknown.length, 'capability', 'capabilities')} used here {lg!.unknown.length === 1 ? 'has' : 'have'} no lineage row: drawn alone,
              marked “no lineage row”.
            </p>
          )}
          <GraphCanvas
            nodes={nodes}
            edges={edges}
            nodeTypes={LINEAGE_NODE_TYPES}
            onNodeClick={onNodeClick}
            height="50vh"
            label={`Capability delegation: ${plural(nodes.length, 'capability', 'capabilities')}`}
            testId="lineage-canvas"
          />
          {lineage.skipped > 0 && <p className="muted">{plural(lineage.skipped, 'lineage row')} could not be read and are left out.</p>}
        </>
      )}
    </section>
  );
}
