// Web Worker entry: lays out the DAG view's graph with ELK (elkjs, bundled:
// it runs inside this worker, not in yet another one), so a layout of
// thousands of nodes never blocks the page. One request at a time; the page
// drops answers to requests it has since replaced.
import ELK from 'elkjs/lib/elk.bundled.js';
import { type LayoutRequest, type LayoutResponse, runLayout } from '../readers/dag-layout';

const elk = new ELK();
const post = (m: LayoutResponse) => (self as unknown as Worker).postMessage(m, m.ok ? [m.xy.buffer] : []);

self.onmessage = (e: MessageEvent<LayoutRequest>) => {
  void runLayout(elk, e.data, () => performance.now()).then(post);
};
