// The receipt DAG (issue 5, item 1): how one agent session's requests fanned
// out. Child receipts are nodes, linked parent_request_id → request_id within
// their session; tool receipts hang where their governed call chain says
// (parent_receipt_id, else their own request_id, else parent_request_id);
// a request that is named as a parent but has no receipt of its own (a
// session's root request, usually) is drawn as a plain request node. Which
// nodes are drawn (a session or all of them, a focused subtree, collapsed
// subtrees) and the ceiling past which nothing is laid out are decided here.
//
// Counting: every number counts verified receipts. Receipts that are not
// verified are still drawn, marked with their verdict, because dropping them
// would silently cut the tree (their children would float free) and hide the
// very receipts an auditor must see; they are counted apart.
//
// Fields are the receipts' claims, attacker-controlled: links may form cycles
// (cut, and the node marked), repeat request ids (the first verified receipt
// holds the request) or point outside the session (a request node). Pure.
import type { RowStore, RowVerdict } from '../query/row-store';
import { otherRuntimeTypeFlags } from '../query/runtimes';
import { sessionCodeOf } from './dag-sessions';

/**
 * Most nodes laid out at once. ELK's layered layout of 5,000 nodes takes a few
 * seconds in the layout worker (scripts/bench-dag.ts), React Flow draws only
 * the nodes in view, and beyond that a picture stops being readable anyway:
 * past it the view asks to narrow the choice rather than freeze.
 */
export const NODE_CEILING = 5_000;

export type DagNodeKind = 'child' | 'tool' | 'request';

export interface DagNode {
  /** Stable across loads (it goes in the URL): `r:<receipt id>` or `q:<session>/<request id>`. */
  key: string;
  kind: DagNodeKind;
  /** The RowStore row (receipts only). */
  row?: number;
  receiptId?: string;
  session: string;
  /** Child: operation kind; tool: server/tool; request: "request". */
  label: string;
  requestId?: string;
  /** Child: terminal state; tool: decision (absent for trace/advisory receipts). */
  state?: string;
  verdict?: RowVerdict;
  /** Unix seconds, when the receipt has one. */
  time?: number;
  /** Direct children (drawn or not). */
  children: number;
  /** Descendants not drawn because this node is collapsed (or off the focused path). */
  hidden: number;
  collapsed: boolean;
  /** Matches the search. */
  match: boolean;
  /** The focused receipt. */
  focus: boolean;
  /** A link of this node formed a cycle and was cut here. */
  cycle?: true;
}

export interface DagEdge {
  id: string;
  source: string;
  target: string;
  /** How the child names its parent. */
  via: 'parent_request_id' | 'parent_receipt_id' | 'request_id';
}

export interface DagGraph {
  /** The session drawn, or null for all sessions. */
  session: string | null;
  /** In what was chosen (before collapsing): verified receipts by type, the others by verdict, request nodes. */
  counts: { child: number; tool: number; notVerified: Record<Exclude<RowVerdict, 'verified'>, number>; requests: number; nodes: number };
  /** Nodes to draw (after collapsing and focus). */
  visible: number;
  ceiling: number;
  /** More than `ceiling` nodes would be drawn: `nodes` and `edges` are empty. */
  tooLarge: boolean;
  nodes: DagNode[];
  edges: DagEdge[];
  /** Nodes matching the search, in what was chosen. */
  matches: number;
  /** `focus` was asked for but is not a receipt of what was chosen. */
  focusMissing: boolean;
  /** Capability ids named by the chosen verified tool receipts, with how many. */
  capabilities: Map<string, number>;
}

export interface DagOptions {
  /** Collapse every root's subtree unless toggled. */
  top?: boolean;
  /** Node keys whose collapsed state is flipped from the default. */
  fold?: ReadonlySet<string>;
  /** A receipt id: draw only its ancestors and its subtree. */
  focus?: string;
  /** Search text (receipt id, request id, tool, operation kind, state). */
  q?: string;
  ceiling?: number;
}

/** What to draw: one session (by id) or every session. */
export type DagChoice = { session: string } | { all: true };

/** The graph of a session (or of all sessions): nodes, edges, collapse and focus applied. */
export function dagGraph(store: RowStore, choice: DagChoice, options: DagOptions = {}): DagGraph {
  const ceiling = options.ceiling ?? NODE_CEILING;
  const sessionCode = 'session' in choice ? (store.dict.sessionId.lookup(choice.session) ?? -1) : -2;
  const { posOfRow } = store.positions();
  const childType = store.dict.type.lookup('child') ?? -1;
  const otherRuntime = otherRuntimeTypeFlags(store);

  // The rows chosen, in log order (Chio receipts only: other runtimes' are not in a request tree).
  let rows: number[] = [];
  for (let row = 0; row < store.length; row++) {
    if (otherRuntime[store.codes.type[row]!]) continue;
    const s = sessionCodeOf(store, row);
    if (s !== 0 && (sessionCode === -2 || s === sessionCode)) rows.push(row);
  }
  rows = rows.sort((a, b) => posOfRow[a]! - posOfRow[b]!);

  const nodes: DagNode[] = [];
  const parent: number[] = [];
  const via: DagEdge['via'][] = [];
  const indexOfKey = new Map<string, number>();
  const counts: DagGraph['counts'] = { child: 0, tool: 0, notVerified: { pending: 0, failed: 0, unverified: 0, unpinned: 0 }, requests: 0, nodes: 0 };
  const capabilities = new Map<string, number>();
  const sessionOf = (row: number) => store.dict.sessionId.values[sessionCodeOf(store, row)]!;

  // Receipt nodes; which receipt holds each (session, request id) and each receipt id.
  const holder = new Map<string, number>();
  const byReceiptId = new Map<string, number>();
  for (const row of rows) {
    const id = store.str('id', row) ?? '';
    let key = `r:${id}`;
    if (indexOfKey.has(key)) key = `r:${id}#${posOfRow[row]}`;
    const isChild = store.codes.type[row] === childType;
    const verdict = store.verdictOf(row);
    const session = sessionOf(row);
    const requestId = store.str('requestId', row);
    const state = store.str('decision', row);
    const t = store.time[row]!;
    const node: DagNode = {
      key,
      kind: isChild ? 'child' : 'tool',
      row,
      receiptId: id,
      session,
      label: isChild ? (store.str('operationKind', row) ?? 'request') : `${store.str('toolServer', row) ?? '?'}/${store.str('toolName', row) ?? '?'}`,
      children: 0,
      hidden: 0,
      collapsed: false,
      match: false,
      focus: false,
      ...(requestId !== undefined ? { requestId } : {}),
      ...(state !== undefined ? { state } : {}),
      verdict,
      ...(!Number.isNaN(t) ? { time: t } : {}),
    };
    const i = nodes.length;
    nodes.push(node);
    parent.push(-1);
    via.push('parent_request_id');
    indexOfKey.set(key, i);
    if (verdict === 'verified') {
      if (isChild) counts.child++;
      else {
        counts.tool++;
        const cap = store.str('capabilityId', row);
        if (cap !== undefined) capabilities.set(cap, (capabilities.get(cap) ?? 0) + 1);
      }
    } else counts.notVerified[verdict]++;
    if (!byReceiptId.has(id) || (nodes[byReceiptId.get(id)!]!.verdict !== 'verified' && verdict === 'verified')) byReceiptId.set(id, i);
    if (isChild && requestId !== undefined) {
      const h = `${session}\u0000${requestId}`;
      const held = holder.get(h);
      if (held === undefined || (nodes[held]!.verdict !== 'verified' && verdict === 'verified')) holder.set(h, i);
    }
  }

  // Links. A parent request with no receipt becomes a request node (created once).
  const requestNode = (session: string, requestId: string): number => {
    const key = `q:${session}/${requestId}`;
    const known = indexOfKey.get(key);
    if (known !== undefined) return known;
    const i = nodes.length;
    nodes.push({ key, kind: 'request', session, label: 'request', requestId, children: 0, hidden: 0, collapsed: false, match: false, focus: false });
    parent.push(-1);
    via.push('parent_request_id');
    indexOfKey.set(key, i);
    counts.requests++;
    return i;
  };
  const receiptCount = nodes.length;
  for (let i = 0; i < receiptCount; i++) {
    const n = nodes[i]!;
    const row = n.row!;
    const parentReceipt = store.str('parentReceiptId', row);
    const parentRequest = store.str('parentRequestId', row);
    if (n.kind === 'tool' && parentReceipt !== undefined && byReceiptId.has(parentReceipt)) {
      parent[i] = byReceiptId.get(parentReceipt)!;
      via[i] = 'parent_receipt_id';
      continue;
    }
    // A tool receipt made for a request that has its own child receipt hangs under that receipt.
    const ownRequest = n.kind === 'tool' && n.requestId !== undefined ? holder.get(`${n.session}\u0000${n.requestId}`) : undefined;
    if (ownRequest !== undefined) {
      parent[i] = ownRequest;
      via[i] = 'request_id';
      continue;
    }
    if (parentRequest !== undefined) {
      parent[i] = holder.get(`${n.session}\u0000${parentRequest}`) ?? requestNode(n.session, parentRequest);
      via[i] = 'parent_request_id';
    }
  }

  // Cycles (claims can say anything): cut the link that closes one.
  const state = new Uint8Array(nodes.length);
  const path: number[] = [];
  for (let i = 0; i < nodes.length; i++) {
    if (state[i] !== 0) continue;
    let j = i;
    path.length = 0;
    while (j !== -1 && state[j] === 0) {
      state[j] = 1;
      path.push(j);
      j = parent[j]!;
    }
    if (j !== -1 && state[j] === 1) {
      const last = path[path.length - 1]!;
      parent[last] = -1;
      nodes[last]!.cycle = true;
    }
    for (const k of path) state[k] = 2;
  }

  // Children lists in log order (a request node sorts just before its first child).
  const rankOf = new Float64Array(nodes.length).fill(Infinity);
  for (let i = 0; i < receiptCount; i++) {
    rankOf[i] = posOfRow[nodes[i]!.row!]!;
    const p = parent[i]!;
    if (p >= receiptCount) rankOf[p] = Math.min(rankOf[p]!, rankOf[i]! - 0.5);
  }
  const kids: number[][] = nodes.map(() => []);
  const roots: number[] = [];
  const order = nodes.map((_, i) => i).sort((a, b) => rankOf[a]! - rankOf[b]!);
  for (const i of order) {
    const p = parent[i]!;
    if (p === -1) roots.push(i);
    else kids[p]!.push(i);
  }
  for (let i = 0; i < nodes.length; i++) nodes[i]!.children = kids[i]!.length;

  // Descendant counts (children before parents: reverse of a breadth-first order).
  const bfs: number[] = [...roots];
  for (let k = 0; k < bfs.length; k++) for (const c of kids[bfs[k]!]!) bfs.push(c);
  const below = new Uint32Array(nodes.length);
  for (let k = bfs.length - 1; k >= 0; k--) {
    const i = bfs[k]!;
    const p = parent[i]!;
    if (p !== -1) below[p]! += below[i]! + 1;
  }

  // Search.
  const q = options.q?.trim().toLowerCase();
  let matches = 0;
  if (q) {
    for (const n of nodes) {
      const fields = [n.receiptId, n.requestId, n.label, n.state, n.kind === 'tool' && n.row !== undefined ? store.str('capabilityId', n.row) : undefined];
      if (fields.some((f) => f?.toLowerCase().includes(q))) {
        n.match = true;
        matches++;
      }
    }
  }

  // Focus: the focused receipt's ancestors and its subtree.
  let focusIndex = -1;
  if (options.focus !== undefined) {
    focusIndex = indexOfKey.get(`r:${options.focus}`) ?? -1;
    if (focusIndex !== -1) nodes[focusIndex]!.focus = true;
  }
  const onPath = new Set<number>();
  if (focusIndex !== -1) for (let j = parent[focusIndex]!; j !== -1; j = parent[j]!) onPath.add(j);

  // Collapsed state: roots when `top`, flipped by `fold`.
  const isRoot = new Uint8Array(nodes.length);
  for (const r of roots) isRoot[r] = 1;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    const byDefault = options.top === true && isRoot[i] === 1;
    n.collapsed = n.children > 0 && byDefault !== (options.fold?.has(n.key) ?? false);
  }

  // What is drawn.
  const visible: number[] = [];
  let stack: number[];
  if (focusIndex === -1) stack = [...roots].reverse();
  else {
    let top = focusIndex;
    while (parent[top] !== -1) top = parent[top]!;
    stack = [top];
  }
  while (stack.length) {
    const i = stack.pop()!;
    visible.push(i);
    const n = nodes[i]!;
    if (onPath.has(i)) {
      // Off-path children are hidden, and counted as such.
      let hidden = 0;
      for (const c of kids[i]!) {
        if (c === focusIndex || onPath.has(c)) stack.push(c);
        else hidden += below[c]! + 1;
      }
      n.hidden = hidden;
      continue;
    }
    if (n.collapsed) {
      n.hidden = below[i]!;
      continue;
    }
    for (let k = kids[i]!.length - 1; k >= 0; k--) stack.push(kids[i]![k]!);
  }

  counts.nodes = nodes.length;
  const graph: DagGraph = {
    session: 'session' in choice ? choice.session : null,
    counts,
    visible: visible.length,
    ceiling,
    tooLarge: visible.length > ceiling,
    nodes: [],
    edges: [],
    matches,
    focusMissing: options.focus !== undefined && focusIndex === -1,
    capabilities,
  };
  if (graph.tooLarge) return graph;
  const drawn = new Uint8Array(nodes.length);
  for (const i of visible) drawn[i] = 1;
  for (const i of order) {
    if (!drawn[i]) continue;
    graph.nodes.push(nodes[i]!);
    const p = parent[i]!;
    if (p !== -1 && drawn[p]) graph.edges.push({ id: `${nodes[p]!.key}>${nodes[i]!.key}`, source: nodes[p]!.key, target: nodes[i]!.key, via: via[i]! });
  }
  return graph;
}
