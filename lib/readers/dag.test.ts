// The receipt DAG's model, on logs verified exactly as the command line does:
// corpus/good (its child receipts counted independently from the raw NDJSON),
// a generated demo store whose producer knows its sessions, child and tool
// receipts, a corpus copy with one child receipt tampered, and hostile links.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateDemoStore, type GenerateResult } from '../../tools/demo/generate';
import { RowStore } from '../query/row-store';
import { openChioStore } from '../sources/sqlite-store';
import { verifiedLog } from '../../test/support/reader-log';
import { readTestdataJson, readTestdataText, testdataPath } from '../../test/support/testdata';
import type { ReceiptView } from '../verdict/receipt-view';
import type { VerificationReport } from '../verdict/report';
import { NODE_CEILING, dagGraph } from './dag';
import { dagSearch } from './dag-search';
import { dagSessions } from './dag-sessions';
import { lineageGraph } from './lineage-graph';

interface RawChild {
  id: string;
  session_id: string;
  parent_request_id: string;
  request_id: string;
  operation_kind: string;
  terminal_state: { state: string };
}
const rawChildren = (text: string): RawChild[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { receipt: RawChild }).receipt);

describe('DAG of corpus/good', () => {
  let log: Awaited<ReturnType<typeof verifiedLog>>;
  const raw = rawChildren(readTestdataText('corpus/good/child-receipts.ndjson'));
  beforeAll(async () => {
    log = await verifiedLog([testdataPath('corpus/good')], readTestdataJson<{ trust_keys: string[] }>('corpus/good/expected.json').trust_keys);
  });

  it('lists each session with the child receipts the raw file and the report hold for it', () => {
    const index = dagSessions(log.store);
    const bySession = new Map<string, number>();
    for (const c of raw) bySession.set(c.session_id, (bySession.get(c.session_id) ?? 0) + 1);
    expect(new Map(index.sessions.map((s) => [s.sessionId, s.child]))).toEqual(bySession);
    // Listed in the order of their first receipt in the log.
    expect(index.sessions.map((s) => s.sessionId)).toEqual([...new Set(raw.map((c) => c.session_id))]);
    const verifiedChildren = log.report.receipts.filter((r) => r.type === 'child' && r.verdict === 'verified').length;
    expect(index.child).toBe(verifiedChildren);
    expect(index.child).toBe(30);
    expect(index.tool).toBe(0);
    expect(index.notVerified).toBe(0);
  });

  it("draws each session's child receipts under their parent requests, roots as request nodes", () => {
    for (const { sessionId } of dagSessions(log.store).sessions) {
      const mine = raw.filter((c) => c.session_id === sessionId);
      const g = dagGraph(log.store, { session: sessionId });
      const ownRequests = new Set(mine.map((c) => c.request_id));
      const rootRequests = new Set(mine.map((c) => c.parent_request_id).filter((p) => !ownRequests.has(p)));
      expect(g.counts.child).toBe(mine.length);
      expect(g.counts.requests).toBe(rootRequests.size);
      expect(g.nodes).toHaveLength(mine.length + rootRequests.size);
      expect(g.edges).toHaveLength(mine.length);
      expect(g.tooLarge).toBe(false);
      // Every edge is parent_request_id → request_id, as the raw records say.
      const byKey = new Map(g.nodes.map((n) => [n.key, n]));
      for (const c of mine) {
        const edge = g.edges.find((e) => e.target === `r:${c.id}`)!;
        expect(byKey.get(edge.source)!.requestId).toBe(c.parent_request_id);
        const node = byKey.get(`r:${c.id}`)!;
        expect([node.label, node.state, node.verdict]).toEqual([c.operation_kind, c.terminal_state.state, 'verified']);
      }
    }
  });

  it('collapses a subtree, focuses one receipt, searches, and refuses past the ceiling', () => {
    const session = 'sess-1';
    const full = dagGraph(log.store, { session });
    const root = full.nodes.find((n) => n.kind === 'request')!;
    const folded = dagGraph(log.store, { session }, { fold: new Set([root.key]) });
    expect(folded.nodes.map((n) => n.key)).toEqual([root.key]);
    expect(folded.nodes[0]!.collapsed).toBe(true);
    expect(folded.nodes[0]!.hidden).toBe(full.nodes.length - 1);
    // `top` collapses the roots; folding a root again opens it.
    expect(dagGraph(log.store, { session }, { top: true }).visible).toBe(full.counts.requests);
    expect(dagGraph(log.store, { session }, { top: true, fold: new Set([root.key]) }).visible).toBe(full.visible);
    // Focus: a nested receipt, its ancestors, and nothing else of the session.
    const nested = raw.find((c) => c.session_id === session && !c.parent_request_id.startsWith('req-root'))!;
    const focused = dagGraph(log.store, { session }, { focus: nested.id });
    const parentReceipt = raw.find((c) => c.request_id === nested.parent_request_id)!;
    expect(focused.nodes.map((n) => n.key)).toEqual([root.key, `r:${parentReceipt.id}`, `r:${nested.id}`]);
    expect(focused.nodes[2]!.focus).toBe(true);
    expect(dagGraph(log.store, { session }, { focus: 'nope' }).focusMissing).toBe(true);
    // Search marks matches.
    const s = dagGraph(log.store, { session }, { q: nested.id.toUpperCase() });
    expect(s.matches).toBe(1);
    expect(s.nodes.filter((n) => n.match).map((n) => n.receiptId)).toEqual([nested.id]);
    // Ceiling.
    const all = dagGraph(log.store, { all: true }, { ceiling: 10 });
    expect(all.tooLarge).toBe(true);
    expect(all.nodes).toEqual([]);
    expect(all.visible).toBe(30 + 5);
    expect(dagGraph(log.store, { all: true }).tooLarge).toBe(false);
    expect(NODE_CEILING).toBeGreaterThanOrEqual(5_000);
  });

  it('finds receipts across sessions by id, request id and session id', () => {
    const target = raw[7]!;
    const byId = dagSearch(log.store, target.id);
    expect(byId.hits).toEqual([{ receiptId: target.id, session: target.session_id, label: target.operation_kind, verdict: 'verified' }]);
    const byRequest = dagSearch(log.store, target.request_id);
    // Its own receipt, and the receipts whose parent it is.
    expect(byRequest.total).toBe(1 + raw.filter((c) => c.parent_request_id === target.request_id).length);
    const bySession = dagSearch(log.store, 'SESS-2');
    expect(bySession.bySession.get('sess-2')).toBe(raw.filter((c) => c.session_id === 'sess-2').length);
    expect(dagSearch(log.store, '  ').total).toBe(0);
  });
});

describe('DAG of corpus/good with one child receipt tampered', () => {
  it('keeps the failed receipt in the tree, marked, and counts it apart', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dag-tampered-'));
    for (const f of readdirSync(testdataPath('corpus/good'))) copyFileSync(testdataPath(`corpus/good/${f}`), path.join(dir, f));
    const lines = readTestdataText('corpus/good/child-receipts.ndjson').split('\n');
    const raw = rawChildren(lines.join('\n'));
    // A receipt that is some other receipt's parent request.
    const k = raw.findIndex((c) => raw.some((o) => o.parent_request_id === c.request_id));
    const kind = raw[k]!.operation_kind;
    lines[k] = lines[k]!.replace(`"operation_kind":"${kind}"`, `"operation_kind":"heartbeat"`);
    expect(kind).not.toBe('heartbeat');
    writeFileSync(path.join(dir, 'child-receipts.ndjson'), lines.join('\n'));
    // The manifest no longer matches this file: load the NDJSON files loose; the other receipts still verify.
    const { store, report } = await verifiedLog(
      readdirSync(dir)
        .filter((f) => f.endsWith('.ndjson'))
        .map((f) => path.join(dir, f)),
      readTestdataJson<{ trust_keys: string[] }>('corpus/good/expected.json').trust_keys,
    );
    const tampered = raw[k]!;
    expect(report.receipts.find((r) => r.id === tampered.id)!.verdict).toBe('failed');
    const index = dagSessions(store);
    expect(index.child).toBe(29);
    expect(index.notVerified).toBe(1);
    const g = dagGraph(store, { session: tampered.session_id });
    const node = g.nodes.find((n) => n.receiptId === tampered.id)!;
    expect(node.verdict).toBe('failed');
    expect(node.label).toBe('heartbeat');
    expect(g.counts.notVerified.failed).toBe(1);
    expect(g.counts.child).toBe(raw.filter((c) => c.session_id === tampered.session_id).length - 1);
    // Its children still hang under it.
    const under = g.edges
      .filter((e) => e.source === node.key)
      .map((e) => e.target)
      .sort();
    expect(under).toEqual(
      raw
        .filter((c) => c.parent_request_id === tampered.request_id)
        .map((c) => `r:${c.id}`)
        .sort(),
    );
  });
});

describe('DAG of a generated demo store', () => {
  let demo: GenerateResult;
  let log: Awaited<ReturnType<typeof verifiedLog>>;
  beforeAll(async () => {
    demo = await generateDemoStore({ count: 1500, out: mkdtempSync(path.join(tmpdir(), 'dag-demo-')) });
    log = await verifiedLog([demo.storePath], [demo.kernelKeyHex]);
  }, 120_000);

  it("has the producer's sessions, child receipts and call-chained tool receipts", () => {
    const index = dagSessions(log.store);
    expect(index.sessions).toHaveLength(demo.counts.sessions);
    expect(index.child).toBe(demo.counts.childReceipts);
    expect(index.tool).toBe(demo.counts.sessionToolReceipts);
    expect(index.notVerified).toBe(0);
    expect(index.sessions.reduce((n, s) => n + s.child, 0)).toBe(demo.counts.childReceipts);
  });

  it("hangs each tool receipt under its tool_call request's child receipt, one root request per session", () => {
    const g = dagGraph(log.store, { all: true });
    expect(g.counts.child).toBe(demo.counts.childReceipts);
    expect(g.counts.tool).toBe(demo.counts.sessionToolReceipts);
    expect(g.counts.requests).toBe(demo.counts.sessions);
    expect(g.nodes).toHaveLength(demo.counts.childReceipts + demo.counts.sessionToolReceipts + demo.counts.sessions);
    expect(g.edges).toHaveLength(g.nodes.length - demo.counts.sessions);
    const byKey = new Map(g.nodes.map((n) => [n.key, n]));
    const tools = g.nodes.filter((n) => n.kind === 'tool');
    for (const t of tools) {
      const e = g.edges.find((x) => x.target === t.key)!;
      const p = byKey.get(e.source)!;
      expect(e.via).toBe('parent_receipt_id');
      expect([p.kind, p.label, p.requestId, p.session]).toEqual(['child', 'tool_call', t.requestId, t.session]);
    }
    // Nested requests (create_message, …) sit under a tool_call, the rest under the session root.
    for (const n of g.nodes.filter((x) => x.kind === 'child')) {
      const p = byKey.get(g.edges.find((x) => x.target === n.key)!.source)!;
      expect(p.kind).toBe(['create_message', 'create_elicitation', 'list_roots'].includes(n.label) ? 'child' : 'request');
    }
    for (const s of dagSessions(log.store).sessions.slice(0, 20)) {
      const one = dagGraph(log.store, { session: s.sessionId });
      expect(one.nodes.filter((n) => !g.edges.some((e) => e.target === n.key))).toHaveLength(1);
      expect(one.counts.child + one.counts.tool).toBe(s.child + s.tool);
    }
  });

  it("draws the delegation chain of every capability a session's tool receipts used", async () => {
    const SQL = await initSqlJs();
    const opened = openChioStore(SQL, new Uint8Array(readFileSync(demo.storePath)));
    if (!opened.ok) throw new Error(opened.message);
    const lineage = opened.store.capabilityLineage('demo').entries;
    opened.store.close();
    const g = dagGraph(log.store, { all: true });
    expect([...g.capabilities.values()].reduce((a, b) => a + b, 0)).toBe(demo.counts.sessionToolReceipts);
    const lg = lineageGraph(g.capabilities, lineage);
    expect(lg.unknown).toEqual([]);
    expect(lg.missingParents).toEqual([]);
    for (const [cap, n] of g.capabilities) expect(lg.nodes.find((x) => x.capabilityId === cap)!.used).toBe(n);
    // Every node with a parent has its edge; the chains end at depth 0.
    for (const n of lg.nodes) {
      if (n.row!.parentCapabilityId === null) expect(n.row!.delegationDepth).toBe(0);
      else expect(lg.edges).toContainEqual({ id: `${n.row!.parentCapabilityId}>${n.capabilityId}`, source: n.row!.parentCapabilityId, target: n.capabilityId });
    }
    expect(lg.nodes.some((n) => n.row!.delegationDepth === 2 || n.row!.delegationDepth === 1)).toBe(true);
  });
});

describe('hostile links', () => {
  const view = (order: number, v: Partial<ReceiptView>): ReceiptView => ({
    order,
    id: `r${order}`,
    type: 'child',
    time: 1000 + order,
    policyHash: 'p',
    kernelKey: null,
    file: 'f',
    line: order,
    sessionId: 's',
    ...v,
  });
  const build = (views: ReceiptView[]) => {
    const store = new RowStore();
    store.append(views);
    const report = { receipts: views.map(() => ({ verdict: 'verified' })), problems: [] } as unknown as VerificationReport;
    store.applyReport(report);
    return store;
  };

  it('cuts a cycle and marks it, and keeps every receipt', () => {
    const store = build([
      view(0, { requestId: 'a', parentRequestId: 'b' }),
      view(1, { requestId: 'b', parentRequestId: 'a' }),
      view(2, { requestId: 'c', parentRequestId: 'c' }),
      view(3, { type: 'tool', id: 't', parentReceiptId: 't', toolServer: 'x', toolName: 'y', sessionId: undefined }),
    ]);
    const g = dagGraph(store, { session: 's' });
    expect(g.nodes.map((n) => n.key).sort()).toEqual(['r:r0', 'r:r1', 'r:r2']);
    expect(g.nodes.filter((n) => n.cycle).length).toBe(2);
    expect(g.edges).toHaveLength(1);
  });

  it('a repeated request id is held by one receipt; a tool receipt hangs under its own request', () => {
    const store = build([
      view(0, { requestId: 'a', parentRequestId: 'root' }),
      view(1, { requestId: 'a', parentRequestId: 'root' }),
      view(2, { requestId: 'b', parentRequestId: 'a' }),
      view(3, { type: 'tool', id: 't', requestId: 'a', parentRequestId: 'root', toolServer: 'x', toolName: 'y' }),
    ]);
    const g = dagGraph(store, { session: 's' });
    const parentOf = (k: string) => g.edges.find((e) => e.target === k)?.source;
    expect(parentOf('r:r2')).toBe('r:r0');
    expect(parentOf('r:t')).toBe('r:r0');
    expect(g.edges.find((e) => e.target === 'r:t')!.via).toBe('request_id');
    expect(parentOf('r:r1')).toBe('q:s/root');
  });

  it('a tool receipt without a session joins the session of the receipt it names', () => {
    const store = build([
      view(0, { requestId: 'a' }),
      view(1, { type: 'tool', id: 't', parentReceiptId: 'r0', sessionId: undefined, toolServer: 'x', toolName: 'y' }),
    ]);
    expect(dagSessions(store).sessions).toEqual([{ sessionId: 's', child: 1, tool: 1, notVerified: 0, firstTime: 1000, lastTime: 1001 }]);
    expect(dagGraph(store, { session: 's' }).edges).toEqual([{ id: 'r:r0>r:t', source: 'r:r0', target: 'r:t', via: 'parent_receipt_id' }]);
  });
});

describe('DAG URL state', () => {
  it('round-trips and drops what it cannot use', async () => {
    const { dagParamsFrom, dagParamsTo } = await import('./dag-params');
    const s = { session: 'sess a&b', all: false, q: 'file_read', focus: 'r:1', fold: ['q:s/x', 'r:2'], top: true };
    expect(dagParamsFrom(new URLSearchParams(dagParamsTo(s).toString()))).toEqual(s);
    expect(dagParamsFrom(new URLSearchParams(`session=${'x'.repeat(600)}&q=%20%20&fold=a&fold=a&all=2`))).toEqual({ all: false, fold: ['a'], top: false });
    expect(dagParamsTo({ all: true, session: 'ignored', fold: [], top: false }).toString()).toBe('all=1');
  });
});
