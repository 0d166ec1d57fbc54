// The layout the worker runs, with the real ELK, on a real session graph:
// every node placed, parents left of their children, nothing overlapping.
import ELK from 'elkjs/lib/elk.bundled.js';
import { describe, expect, it } from 'vitest';
import { verifiedLog } from '../../test/support/reader-log';
import { readTestdataJson, testdataPath } from '../../test/support/testdata';
import { dagGraph } from './dag';
import { runLayout } from './dag-layout';

describe('DAG layout (ELK layered, left to right)', () => {
  it('places every node of the corpus/good sessions, each parent left of its children, without overlaps', async () => {
    const { store } = await verifiedLog([testdataPath('corpus/good')], readTestdataJson<{ trust_keys: string[] }>('corpus/good/expected.json').trust_keys);
    const g = dagGraph(store, { all: true });
    const nodes = g.nodes.map((n) => ({ id: n.key, width: 200, height: 60 }));
    const r = await runLayout(new ELK(), { id: 7, nodes, edges: g.edges }, () => 0);
    if (!r.ok) throw new Error(r.message);
    expect(r.id).toBe(7);
    expect(r.xy).toHaveLength(nodes.length * 2);
    const at = new Map(nodes.map((n, i) => [n.id, { x: r.xy[2 * i]!, y: r.xy[2 * i + 1]! }]));
    for (const e of g.edges) expect(at.get(e.source)!.x + 200).toBeLessThanOrEqual(at.get(e.target)!.x);
    const boxes = [...at.values()];
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        expect(Math.abs(a.x - b.x) >= 200 || Math.abs(a.y - b.y) >= 60).toBe(true);
      }
    expect(r.width).toBeGreaterThan(0);
  });

  it('answers a graph ELK cannot lay out with an error, not a throw', async () => {
    const r = await runLayout(new ELK(), { id: 1, nodes: [{ id: 'a', width: 10, height: 10 }], edges: [{ id: 'e', source: 'a', target: 'missing' }] }, () => 0);
    expect(r).toMatchObject({ id: 1, ok: false });
  });
});
