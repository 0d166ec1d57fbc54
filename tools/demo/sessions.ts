// Agent sessions and their child requests (ChildRequestReceipt, chio-format.md §7): request trees, tool_call links, and a time-ordered queue of pending child receipts.
//
// A session has a root request; its top-level requests (list_capabilities, read_resource, the
// agent's tool calls, …) are children of the root, and an allowed tool call may itself issue
// nested requests (create_message sampling, elicitation, list_roots) whose parent is that
// tool_call request. A tool receipt made inside a session names its tool_call request in
// metadata.governed_transaction.call_chain, including the child receipt id of that request
// (pre-assigned here; the child receipt is logged when the request terminates, a moment later).
import type { Agent } from './actors';
import type { Plain } from './content';
import type { Prng } from './prng';

export type OperationKind =
  | 'tool_call'
  | 'create_message'
  | 'create_elicitation'
  | 'list_roots'
  | 'list_resources'
  | 'read_resource'
  | 'list_resource_templates'
  | 'list_prompts'
  | 'get_prompt'
  | 'complete'
  | 'list_capabilities'
  | 'heartbeat';

export interface ChildEvent {
  id: string;
  timestamp: number;
  sessionId: string;
  parentRequestId: string;
  requestId: string;
  operationKind: OperationKind;
  terminal: { state: 'completed' | 'cancelled' | 'incomplete'; reason?: string };
  /** The request's result, hashed into outcome_hash when it completed. */
  outcome: Plain | null;
  policyHash: string;
}

export interface CallChain {
  session_id: string;
  request_id: string;
  parent_request_id: string;
  parent_receipt_id: string;
}

export interface Session {
  id: string;
  rootRequestId: string;
  agent: Agent;
  /** What the agent is doing; carried as the governed intent's purpose. */
  purpose: string;
  callsLeft: number;
  nextSeq: number;
}

const PURPOSES = [
  'triage incident 4711',
  'monthly close',
  'weekly dependency update',
  'customer refund batch',
  'quarterly usage report',
  'onboard new customer',
];

/** Chance per tool receipt that an agent opens a session; tuned for about one child receipt per 8 tool receipts. */
const OPEN_CHANCE = 0.018;

export class Sessions {
  private active: Session[] = [];
  private pending: ChildEvent[] = [];
  opened = 0;

  constructor(private readonly r: Prng) {}

  /** Maybe opens a session for one of `agents` at tool seq `seq`, time `t`. */
  maybeOpen(agents: readonly Agent[], seq: number, t: number, policyHash: string): void {
    const r = this.r;
    if (!r.chance(OPEN_CHANCE)) return;
    const s: Session = {
      id: `sess-${r.uuidV7(t * 1000 + r.int(0, 999))}`,
      rootRequestId: `req-${r.hex(12)}`,
      agent: r.weighted(agents.map((a) => [a, a.weight] as const)),
      purpose: r.pick(PURPOSES),
      callsLeft: r.int(2, 5),
      nextSeq: seq + r.int(1, 4),
    };
    this.active.push(s);
    this.opened++;
    const opening: OperationKind[] = ['list_capabilities', 'list_resources', 'list_prompts', 'list_resource_templates'];
    for (let i = r.int(1, 2); i > 0; i--) this.child(s, s.rootRequestId, r.pick(opening), t + r.int(0, 2), policyHash);
  }

  /** The session whose next tool call is the receipt at `seq`, if any. */
  due(seq: number): Session | undefined {
    return this.active.find((s) => s.nextSeq <= seq);
  }

  /** Logs a session's tool call at `t`: schedules its tool_call child receipt (and nested requests) and returns the call chain. */
  toolCall(s: Session, seq: number, t: number, verdict: string, policyHash: string): CallChain {
    const r = this.r;
    const requestId = `req-${r.hex(12)}`;
    let terminal: ChildEvent['terminal'] = { state: 'completed' };
    let ends = t + r.int(0, 3);
    if (verdict === 'cancelled') terminal = { state: 'cancelled', reason: r.pick(['client cancelled the request', 'superseded by a newer request']) };
    if (verdict === 'incomplete') terminal = { state: 'incomplete', reason: r.pick(['tool server stream ended early', 'tool server timed out after 30s']) };
    if (verdict === 'deny') ends = t;
    if (verdict === 'allow' && r.chance(0.35)) {
      const nested = r.weighted<OperationKind>([
        ['create_message', 70],
        ['create_elicitation', 15],
        ['list_roots', 15],
      ]);
      this.child(s, requestId, nested, t + r.int(0, Math.max(0, ends - t - 1)), policyHash);
    }
    const outcome =
      terminal.state !== 'completed'
        ? null
        : verdict === 'deny'
          ? { is_error: true, error: 'denied by kernel policy' }
          : { is_error: false, content_items: r.int(1, 4) };
    const id = this.push({
      sessionId: s.id,
      parentRequestId: s.rootRequestId,
      requestId,
      operationKind: 'tool_call',
      terminal,
      outcome,
      policyHash,
      timestamp: ends,
    });
    if (r.chance(0.3))
      this.child(s, s.rootRequestId, r.pick<OperationKind>(['read_resource', 'get_prompt', 'complete', 'heartbeat']), t + r.int(1, 4), policyHash);
    s.callsLeft--;
    s.nextSeq = seq + r.int(1, 8);
    if (s.callsLeft === 0) this.active = this.active.filter((x) => x !== s);
    return { session_id: s.id, request_id: requestId, parent_request_id: s.rootRequestId, parent_receipt_id: id };
  }

  /** Pending child receipts timed before `t`, in time order. */
  takeBefore(t: number): ChildEvent[] {
    let n = 0;
    while (n < this.pending.length && this.pending[n]!.timestamp < t) n++;
    return this.pending.splice(0, n);
  }

  /** All pending child receipts, in time order (end of the log). */
  drain(): ChildEvent[] {
    return this.pending.splice(0);
  }

  private child(s: Session, parentRequestId: string, kind: OperationKind, timestamp: number, policyHash: string): void {
    const r = this.r;
    const roll = r.float();
    const terminal: ChildEvent['terminal'] =
      roll < 0.9
        ? { state: 'completed' }
        : roll < 0.95
          ? { state: 'cancelled', reason: r.pick(['parent request cancelled', 'client cancelled the request']) }
          : { state: 'incomplete', reason: r.pick(['session closed before the response', 'upstream timed out after 30s']) };
    const outcome = terminal.state === 'completed' ? outcomeOf(r, kind) : null;
    this.push({ sessionId: s.id, parentRequestId, requestId: `req-${r.hex(12)}`, operationKind: kind, terminal, outcome, policyHash, timestamp });
  }

  /** Queues a child receipt in time order (stable for equal times) and returns its id. */
  private push(e: Omit<ChildEvent, 'id'>): string {
    const id = `child-rcpt-${this.r.uuidV7(e.timestamp * 1000 + this.r.int(0, 999))}`;
    let i = this.pending.length;
    while (i > 0 && this.pending[i - 1]!.timestamp > e.timestamp) i--;
    this.pending.splice(i, 0, { id, ...e });
    return id;
  }
}

function outcomeOf(r: Prng, kind: OperationKind): Plain {
  switch (kind) {
    case 'list_capabilities':
      return { tools: r.int(3, 24), resources: true, prompts: true };
    case 'list_resources':
      return { resources: r.int(0, 60) };
    case 'list_prompts':
      return { prompts: r.int(1, 12) };
    case 'list_resource_templates':
      return { templates: r.int(0, 6) };
    case 'read_resource':
      return { uri: `file:///srv/app/docs/${r.pick(['runbook.md', 'architecture.md', 'faq.md'])}`, bytes: r.int(200, 30_000) };
    case 'get_prompt':
      return { name: r.pick(['summarize-incident', 'draft-reply', 'review-diff']), messages: r.int(1, 6) };
    case 'complete':
      return { values: r.int(0, 10), has_more: false };
    case 'heartbeat':
      return { ok: true };
    case 'create_message':
      return { model: r.pick(['claude-sonnet-4', 'gpt-4.1-mini']), stop_reason: 'end_turn', output_tokens: r.int(20, 1800) };
    case 'create_elicitation':
      return { action: r.pick(['accept', 'decline']) };
    case 'list_roots':
      return { roots: r.int(1, 3) };
    case 'tool_call':
      return { is_error: false, content_items: 1 };
  }
}
