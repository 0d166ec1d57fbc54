// The JS heap of a page and of every worker it starts (the log worker, and the verify workers the
// log worker starts), summed, through the Chrome DevTools Protocol. Playwright's CDP session talks
// to the page only, so workers are reached the way DevTools reached them before flat sessions:
// `Target.setAutoAttach` without `flatten`, then `Target.sendMessageToTarget`, nested once per
// generation of workers. Workers started before the sampler are attached too.
import type { CDPSession } from '@playwright/test';

interface Reply {
  id?: number;
  method?: string;
  params?: { sessionId: string; message: string; targetInfo?: { type: string } };
  result?: { usedSize?: number };
}

export interface HeapSampler {
  /** Sums `usedSize` over the page and every live worker now, in bytes. */
  sample(): Promise<number>;
  /** How many workers are attached now. */
  readonly workers: number;
}

export async function jsHeapSampler(cdp: CDPSession): Promise<HeapSampler> {
  let nextId = 1;
  const waiting = new Map<number, (r: Reply['result'] | undefined) => void>();
  /** Each attached worker: how to send it a command (through its parents' sessions). */
  const workers = new Map<string, (method: string, params?: object) => Promise<Reply['result'] | undefined>>();

  const wrap = (path: string[], method: string, params: object, id: number): { method: string; params: object } => {
    let msg: { method: string; params: object; id?: number } = { id, method, params };
    for (let i = path.length - 1; i >= 0; i--) {
      msg = { method: 'Target.sendMessageToTarget', params: { sessionId: path[i]!, message: JSON.stringify(msg) }, ...(i > 0 ? { id: nextId++ } : {}) };
    }
    return msg;
  };
  const sender =
    (path: string[]) =>
    (method: string, params: object = {}) =>
      new Promise<Reply['result'] | undefined>((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        const outer = wrap(path, method, params, id);
        // A worker that has just gone away: its reply never comes; the sample treats it as 0.
        cdp.send(outer.method as 'Target.sendMessageToTarget', outer.params as never).catch(() => {
          waiting.delete(id);
          resolve(undefined);
        });
        setTimeout(() => {
          if (waiting.delete(id)) resolve(undefined);
        }, 2000);
      });

  const onMessage = (text: string, path: string[]) => {
    const m = JSON.parse(text) as Reply;
    if (m.id !== undefined && waiting.has(m.id)) {
      waiting.get(m.id)!(m.result);
      waiting.delete(m.id);
    } else if (m.method === 'Target.receivedMessageFromTarget' && m.params) {
      onMessage(m.params.message, [...path, m.params.sessionId]);
    } else if (m.method === 'Target.attachedToTarget' && m.params) {
      attach([...path, m.params.sessionId]);
    } else if (m.method === 'Target.detachedFromTarget' && m.params) {
      workers.delete([...path, m.params.sessionId].join('/'));
    }
  };
  const attach = (path: string[]) => {
    const send = sender(path);
    workers.set(path.join('/'), send);
    // The worker's own workers (the verify pool of the log worker).
    void send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  };

  cdp.on('Target.receivedMessageFromTarget', (e) => onMessage(e.message, [e.sessionId]));
  cdp.on('Target.attachedToTarget', (e) => attach([e.sessionId]));
  cdp.on('Target.detachedFromTarget', (e) => workers.delete(e.sessionId));
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });

  return {
    get workers() {
      return workers.size;
    },
    async sample() {
      const page = cdp.send('Runtime.getHeapUsage').then(
        (h) => h.usedSize,
        () => 0,
      );
      const rest = [...workers.values()].map((send) => send('Runtime.getHeapUsage').then((r) => r?.usedSize ?? 0));
      return (await Promise.all([page, ...rest])).reduce((a, b) => a + b, 0);
    },
  };
}
