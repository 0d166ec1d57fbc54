'use client';
// The receipt DAG (/dag): how an agent session's requests fanned out into
// child requests and tool calls, with each receipt's terminal state and
// verdict, and the delegation lineage of the capabilities used. What is drawn
// (session, search, focus, folds) is the URL. The model is lib/readers/dag.ts;
// the layout runs in a worker; this file only renders.
import type { Node, NodeMouseHandler, NodeTypes } from '@xyflow/react';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useReplaceQuery } from '../../data/use-replace-query';
import { useCallback, useMemo } from 'react';
import { type DagChoice, type DagGraph, dagGraph } from '../../../lib/readers/dag';
import { type DagParams, dagParamsFrom, dagParamsTo } from '../../../lib/readers/dag-params';
import { dagSearch } from '../../../lib/readers/dag-search';
import { dagSessions } from '../../../lib/readers/dag-sessions';
import { useSession } from '../../data/log-contexts';
import { formatTime } from '../../explorer/format';
import { ReaderShell, VerifiedNote, type ReaderData } from '../reader-shell';
import { type CanvasEdge, type CanvasNode, GraphCanvas } from './graph-canvas';
import { type DagNodeData, DagActions, RECEIPT_SIZE, REQUEST_SIZE, ReceiptNodeView, RequestNodeView, shortId } from './dag-nodes';
import './dag.css';
import { SafeText } from '../../ui/safe-text';
import { revealPlain } from '../../../lib/text/reveal';
import { explorerHref, fmt, plural } from './dag-format';
import { LineagePanel } from './lineage-panel';
import { SessionPicker } from './session-picker';

const DAG_NODE_TYPES: NodeTypes = { receipt: ReceiptNodeView, request: RequestNodeView };

export function DagView() {
  return <ReaderShell>{(d) => <DagReader {...d} />}</ReaderShell>;
}

function DagReader({ store, report, scope, label }: ReaderData) {
  const { session } = useSession();
  const lineage = session.status === 'done' ? session.lineage : null;
  const params = useSearchParams();
  const replaceQuery = useReplaceQuery();
  const state = useMemo(() => dagParamsFrom(new URLSearchParams(params.toString())), [params]);
  const setState = useCallback((next: DagParams) => replaceQuery(dagParamsTo(next)), [replaceQuery]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the RowStore is filled in place, so `report` (a new one when its rows and verdicts are final) is the dependency that matters
  const index = useMemo(() => dagSessions(store), [store, report]);
  // With no session chosen: the one with the most verified receipts.
  const largest = useMemo(
    () => index.sessions.reduce<(typeof index.sessions)[number] | undefined>((m, s) => (!m || s.child + s.tool > m.child + m.tool ? s : m), undefined),
    [index],
  );
  const chosen = state.all ? null : (state.session ?? largest?.sessionId ?? null);
  const choice = useMemo((): DagChoice | null => (state.all ? { all: true } : chosen !== null ? { session: chosen } : null), [state.all, chosen]);
  const foldKey = state.fold.join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the RowStore is filled in place, so `report` (a new one when its rows and verdicts are final) is the dependency that matters
  const graph = useMemo(
    () =>
      choice
        ? dagGraph(store, choice, {
            fold: new Set(foldKey ? foldKey.split('\n') : []),
            top: state.top,
            ...(state.focus !== undefined ? { focus: state.focus } : {}),
            ...(state.q !== undefined ? { q: state.q } : {}),
          })
        : null,
    [store, report, choice, foldKey, state.top, state.focus, state.q],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the RowStore is filled in place, so `report` (a new one when its rows and verdicts are final) is the dependency that matters
  const search = useMemo(() => (state.q ? dagSearch(store, state.q) : null), [store, report, state.q]);

  const toggle = useCallback(
    (key: string) => {
      const fold = state.fold.includes(key) ? state.fold.filter((k) => k !== key) : [...state.fold, key];
      setState({ ...state, fold });
    },
    [state, setState],
  );
  const actions = useMemo(() => ({ toggle }), [toggle]);

  if (index.sessions.length === 0) {
    return (
      <>
        <VerifiedNote scope={scope} label={label} />
        <div className="dag-empty" data-testid="dag-empty">
          <h2>No request trees in this log</h2>
          <p>
            A request tree needs child receipts (a package&apos;s <code>child-receipts.ndjson</code>, a store&apos;s <code>chio_child_receipts</code>) or tool
            receipts whose governed call chain names a session. <SafeText text={label} max={120} /> has neither, so there is nothing to draw here. The{' '}
            <Link href="/receipts">explorer</Link> lists every receipt it has.
          </p>
        </div>
      </>
    );
  }

  return (
    <DagActions.Provider value={actions}>
      <VerifiedNote scope={scope} label={label} />
      <p className="muted dag-intro">
        Each box is a signed receipt: a child request the kernel handled for the agent, or a tool call it governed, placed under the request it was made for.{' '}
        {index.notVerified > 0
          ? 'Receipts that are not verified are still drawn, with a dashed red or amber border, so the tree is not cut; they are not counted.'
          : ''}
      </p>
      <div className="dag-layout">
        <SessionPicker index={index} state={state} setState={setState} search={search} chosen={graph?.session ?? null} />
        <div className="dag-main">
          {graph && <GraphPanel graph={graph} state={state} setState={setState} toggle={toggle} />}
          {graph && <LineagePanel graph={graph} lineage={lineage} verdicts={report.lineage} />}
        </div>
      </div>
    </DagActions.Provider>
  );
}

function GraphPanel({
  graph,
  state,
  setState,
  toggle,
}: {
  graph: DagGraph;
  state: DagParams;
  setState: (s: DagParams) => void;
  toggle: (key: string) => void;
}) {
  const router = useRouter();
  const c = graph.counts;
  const notVerified = c.notVerified.failed + c.notVerified.unverified + c.notVerified.unpinned + c.notVerified.pending;
  const nodes = useMemo<CanvasNode<DagNodeData>[]>(
    () =>
      graph.nodes.map((n) => ({
        id: n.key,
        type: n.kind === 'request' ? 'request' : 'receipt',
        data: n as DagNodeData,
        ...(n.kind === 'request' ? REQUEST_SIZE : RECEIPT_SIZE),
      })),
    [graph],
  );
  const edges = useMemo<CanvasEdge[]>(() => graph.edges.map((e) => ({ id: e.id, source: e.source, target: e.target, className: `via-${e.via}` })), [graph]);
  const onNodeClick = useCallback<NodeMouseHandler<Node<DagNodeData>>>(
    (event, node) => {
      if ((event.target as HTMLElement).closest('a, button')) return;
      if (node.data.kind === 'request') toggle(node.data.key);
      else router.push(`/receipts/${encodeURIComponent(node.data.receiptId!)}`);
    },
    [router, toggle],
  );
  const times = graph.nodes.filter((n) => n.time !== undefined).map((n) => n.time!);
  const first = times.length ? Math.min(...times) : NaN;
  const last = times.length ? Math.max(...times) : NaN;
  const title = graph.session === null ? 'All sessions' : `Session ${revealPlain(graph.session, 200)}`;
  const clear = (patch: Partial<DagParams>, drop: (keyof DagParams)[] = []) => {
    const next: DagParams = { ...state, ...patch };
    for (const k of drop) delete next[k];
    setState(next);
  };
  return (
    <section className="dag-panel" aria-label={title}>
      <header className="dag-panel-head">
        <div>
          <h2 className="dag-title" title={title}>
            {graph.session === null ? (
              'All sessions'
            ) : (
              <>
                Session{' '}
                <code>
                  <SafeText text={shortId(graph.session, 14)} />
                </code>
              </>
            )}
          </h2>
          <p
            className="dag-counts"
            data-testid="dag-counts"
            data-child={c.child}
            data-tool={c.tool}
            data-requests={c.requests}
            data-not-verified={notVerified}
            data-visible={graph.visible}
          >
            <strong>{plural(c.child, 'child receipt')}</strong> and <strong>{plural(c.tool, 'tool receipt')}</strong>, verified
            {c.requests > 0 ? `, under ${plural(c.requests, 'request')} with no receipt of their own` : ''}
            {notVerified > 0 && (
              <>
                {'; '}
                <span className="bad">
                  {[
                    c.notVerified.failed && `${fmt(c.notVerified.failed)} failed`,
                    c.notVerified.unverified && `${fmt(c.notVerified.unverified)} unverified`,
                    c.notVerified.pending && `${fmt(c.notVerified.pending)} not yet checked`,
                  ]
                    .filter(Boolean)
                    .join(', ')}{' '}
                  drawn but not counted
                </span>
              </>
            )}
            {Number.isFinite(first) ? ` · ${formatTime(first)} – ${formatTime(last)} UTC` : ''}
          </p>
        </div>
        <div className="dag-tools">
          {graph.session !== null && (
            <Link className="button" href={explorerHref({ sessionId: [graph.session] })} data-testid="dag-explorer-link">
              These receipts in the explorer
            </Link>
          )}
          <button type="button" className="button" onClick={() => clear({ top: true, fold: [] })} data-testid="dag-collapse-all">
            Collapse all
          </button>
          <button type="button" className="button" onClick={() => clear({ top: false, fold: [] })} data-testid="dag-expand-all">
            Expand all
          </button>
        </div>
      </header>
      {state.focus !== undefined && (
        <p className="banner warn dag-focus" data-testid="dag-focus">
          {graph.focusMissing ? (
            <>
              The receipt <SafeText text={shortId(state.focus, 12)} /> is not part of this choice.{' '}
            </>
          ) : (
            <>
              Showing only receipt{' '}
              <code>
                <SafeText text={shortId(state.focus, 12)} />
              </code>
              , the requests above it and everything below it.{' '}
            </>
          )}
          <button type="button" className="linkish" onClick={() => clear({}, ['focus'])} data-testid="dag-focus-clear">
            Show the whole {graph.session === null ? 'graph' : 'session'}
          </button>
        </p>
      )}
      {graph.tooLarge ? (
        <div className="dag-too-large" role="status" data-testid="dag-too-large" data-visible={graph.visible} data-ceiling={graph.ceiling}>
          <h3>Too large to draw: narrow the choice</h3>
          <p>
            This would draw {plural(graph.visible, 'node')}; the view lays out at most {fmt(graph.ceiling)} at once, so the page stays responsive. Pick one
            session from the list, search for a receipt or tool, or{' '}
            <button type="button" className="linkish" onClick={() => clear({ top: true, fold: [] })}>
              show only the top-level requests
            </button>{' '}
            and open the ones you need.
          </p>
        </div>
      ) : (
        <>
          <Legend graph={graph} />
          <GraphCanvas
            nodes={nodes}
            edges={edges}
            nodeTypes={DAG_NODE_TYPES}
            onNodeClick={onNodeClick}
            height="78vh"
            label={`Request tree of ${graph.session === null ? 'all sessions' : `session ${graph.session}`}: ${plural(graph.visible, 'node')}`}
            testId="dag-canvas"
            minimap={graph.visible > 40 && graph.visible <= 1_500}
          />
          {graph.matches > 0 && (
            <p className="muted">
              {plural(graph.matches, 'box', 'boxes')} matching “{state.q}” {graph.matches === 1 ? 'is' : 'are'} outlined in blue.
            </p>
          )}
          <p className="muted dag-hint">
            Click a receipt to open it. <span aria-hidden="true">▾/▸</span> folds or unfolds what is below a request. Drag to pan, scroll or pinch to zoom.
            {graph.visible > 400 ? ' This graph opens on its first requests; the ⛶ button fits all of it in view.' : ''}
          </p>
        </>
      )}
    </section>
  );
}

function Legend({ graph }: { graph: DagGraph }) {
  const hasTool = graph.nodes.some((n) => n.kind === 'tool');
  return (
    <ul className="dag-legend" aria-label="Legend">
      <li>
        <span className="swatch v-verified" /> verified
      </li>
      <li>
        <span className="swatch v-failed" /> failed (dashed)
      </li>
      <li>
        <span className="swatch v-unverified" /> not verified (dashed)
      </li>
      <li>
        <span className="swatch v-unpinned" /> intact, signer not pinned (dotted)
      </li>
      <li>
        <span className="dag-state good">completed / allow</span> <span className="dag-state warn">cancelled / incomplete</span>{' '}
        <span className="dag-state bad">deny</span>
      </li>
      <li>
        <span className="edge-sample" /> parent_request_id
      </li>
      {hasTool && (
        <li>
          <span className="edge-sample dotted" /> tool call, by its call chain
        </li>
      )}
    </ul>
  );
}
