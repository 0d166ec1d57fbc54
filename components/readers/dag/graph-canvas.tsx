'use client';
// A laid-out graph drawn with React Flow: positions come from the layout
// worker (ELK), nodes are the caller's components. Pan with the mouse or
// trackpad, zoom with the wheel or the controls; only the nodes in view are
// rendered, so thousands of nodes stay smooth.
import '@xyflow/react/dist/style.css';
import { Background, Controls, type Edge, MiniMap, type Node, type NodeMouseHandler, type NodeTypes, ReactFlow } from '@xyflow/react';
import { useMemo } from 'react';
import type { LayoutEdge, LayoutNode } from '../../../lib/readers/dag-layout';
import { useLayout } from './use-layout';
import { SafeText } from '../../ui/safe-text';

export interface CanvasNode<D extends Record<string, unknown>> extends LayoutNode {
  type: string;
  data: D;
}

export interface CanvasEdge extends LayoutEdge {
  className?: string;
}

export function GraphCanvas<D extends Record<string, unknown>>({
  nodes,
  edges,
  nodeTypes,
  onNodeClick,
  height,
  label,
  testId,
  minimap = false,
  fitBelow = 400,
}: {
  nodes: CanvasNode<D>[];
  edges: CanvasEdge[];
  nodeTypes: NodeTypes;
  onNodeClick?: NodeMouseHandler<Node<D>>;
  /** The tallest the canvas gets (CSS length); below it, the canvas fits the laid-out graph at about 90%. */
  height: string;
  label: string;
  testId: string;
  minimap?: boolean;
  /**
   * Up to this many nodes the graph opens zoomed to fit. Larger graphs open at a readable zoom on
   * their first requests, so only the nodes in view are rendered (a fit view of thousands of
   * nodes puts every one in the DOM; the fit button still shows it all).
   */
  fitBelow?: number;
}) {
  const layoutNodes = useMemo(() => nodes.map(({ id, width, height: h }) => ({ id, width, height: h })), [nodes]);
  const layoutEdges = useMemo(() => edges.map(({ id, source, target }) => ({ id, source, target })), [edges]);
  const layout = useLayout(layoutNodes, layoutEdges);
  const flow = useMemo(() => {
    if (layout.status !== 'done') return null;
    const fn: Node<D>[] = nodes.map((n) => ({
      id: n.id,
      type: n.type,
      data: n.data,
      position: layout.xy.get(n.id) ?? { x: 0, y: 0 },
      width: n.width,
      height: n.height,
      draggable: false,
      connectable: false,
    }));
    const fe: Edge[] = edges.map((e) => ({
      id: e.id,
      source: e.source,
      target: e.target,
      type: 'smoothstep',
      ...(e.className ? { className: e.className } : {}),
    }));
    return { nodes: fn, edges: fe };
  }, [layout, nodes, edges]);

  return (
    <div
      className="dag-canvas"
      style={{ height: layout.status === 'done' ? `min(${height}, ${Math.max(200, Math.round(layout.height * 0.9 + 48))}px)` : `min(${height}, 320px)` }}
      role="figure"
      aria-label={label}
      data-testid={testId}
      data-layout={layout.status}
      data-nodes={nodes.length}
      data-layout-ms={layout.status === 'done' ? layout.ms : undefined}
    >
      {layout.status === 'running' && (
        <p className="dag-canvas-status muted" role="status">
          Laying out {layout.nodes.toLocaleString('en-US')} nodes…
        </p>
      )}
      {layout.status === 'error' && (
        <p className="dag-canvas-status" role="alert">
          Could not lay out this graph: <SafeText text={layout.message} max={300} />
        </p>
      )}
      {flow && (
        <ReactFlow
          nodes={flow.nodes}
          edges={flow.edges}
          nodeTypes={nodeTypes}
          {...(onNodeClick ? { onNodeClick } : {})}
          {...(nodes.length <= fitBelow ? { fitView: true, fitViewOptions: { padding: 0.06, maxZoom: 1 } } : { defaultViewport: { x: 16, y: 16, zoom: 0.8 } })}
          minZoom={0.05}
          maxZoom={2}
          onlyRenderVisibleElements
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          colorMode="system"
        >
          <Background gap={24} />
          <Controls showInteractive={false} />
          {minimap && <MiniMap pannable zoomable />}
        </ReactFlow>
      )}
    </div>
  );
}
