// The demo's deterministic content: for each tool receipt, who calls which tool when, under which policy and kernel generation, what the guards decide and what it costs.
import { Actors, type Capability, type LineageRow } from './actors';
import { ALL_TOOLS, DENY_WEIGHTS, type GuardName, guardsFor, type ToolSpec } from './catalog';
import { callContent, type Plain, passDetails, redact } from './content';
import { budgetTexts, Finance, type Quote } from './finance';
import { Prng } from './prng';
import { type CallChain, type Session, Sessions } from './sessions';
import { sha256HexOfText } from '../../lib/crypto/sha256';

/** 2026-01-01T00:00:00Z: where the simulated clock starts. */
export const DEMO_START = 1_767_225_600;

export type ReceiptKind = 'mediated_decision' | 'trace_observation' | 'advisory_evaluation';
export interface Evidence {
  guard_name: string;
  verdict: boolean;
  details?: string;
}
export interface Decision {
  verdict: 'allow' | 'deny' | 'cancelled' | 'incomplete';
  reason?: string;
  guard?: string;
}

export interface ToolEvent {
  seq: number;
  timestamp: number;
  generation: 'A' | 'B';
  kind: ReceiptKind;
  /** `rcpt-<UUIDv7>`: the Gen A id; in Gen B the signing nonce moved into metadata. */
  nonce: string;
  cap: Capability;
  grantIndex?: number;
  tool: ToolSpec;
  parameters: Plain;
  /** The tool's output when the receipt attests one (allowed or observed calls), else null. */
  output: Plain | null;
  decision?: Decision;
  evidence: Evidence[];
  financial?: Record<string, unknown>;
  session?: { chain: CallChain; purpose: string };
  policyHash: string;
  redactionMode: 'none' | 'summary' | 'redacted';
  /**
   * Set for the calls an agent host made through chio-bridge (Claude Code, format §16.10): the
   * MCP request id. The receipt then binds the whole CallToolResult and carries the request context.
   */
  bridge?: { requestId: string };
}

/** One call as it is being decided. */
interface Call {
  session?: Session;
  cap: Capability;
  kind: ReceiptKind;
  grantIndex?: number;
  tool: ToolSpec;
  verdict: Decision['verdict'];
  block: GuardName | null;
  quote?: Quote;
}

/** Policy versions in force from a fraction of the log on; 2.0.0 ships with the Gen B kernel. */
const POLICIES: readonly [string, number][] = [
  ['1.0.0', 0],
  ['1.1.0', 0.3],
  ['1.2.0', 0.6],
  ['2.0.0', 0.85],
];
/** The kernel upgrade (Gen A 0.1.0 → Gen B 0.1.2 receipts) happens after this fraction of the tool receipts. */
export const UPGRADE_FRACTION = 0.85;

export function policyHash(version: string): string {
  return sha256HexOfText(`chio-demo-policy/agents@${version}`);
}

export class DemoModel {
  readonly r: Prng;
  readonly actors: Actors;
  readonly sessions: Sessions;
  private readonly finance: Finance;
  private readonly upgradeSeq: number;
  private readonly policyStarts: [number, string][];
  private t = DEMO_START;

  constructor(count: number, seed: string, onLineage: (row: LineageRow) => void) {
    this.r = new Prng(seed);
    this.actors = new Actors(this.r, seed, DEMO_START, onLineage);
    this.sessions = new Sessions(this.r);
    this.finance = new Finance(this.r);
    this.upgradeSeq = Math.floor(count * UPGRADE_FRACTION) + 1;
    this.policyStarts = POLICIES.map(([v, f]) => [Math.floor(count * f) + 1, policyHash(v)]);
  }

  policyAt(seq: number): string {
    let hash = this.policyStarts[0]![1];
    for (const [start, h] of this.policyStarts) if (seq >= start) hash = h;
    return hash;
  }

  /** The tool receipt at `seq` (called with 1, 2, 3, …). */
  next(seq: number): ToolEvent {
    const r = this.r;
    this.t += r.int(1, 6) + (r.chance(0.03) ? r.int(10, 240) : 0);
    const t = this.t;
    const policy = this.policyAt(seq);
    const generation = seq >= this.upgradeSeq ? 'B' : 'A';
    this.sessions.maybeOpen(this.actors.agents, seq, t, policy);
    const call = this.judge(this.choose(seq, generation, t), t);
    const { kind, cap, tool, quote, verdict, block, session } = call;
    const content = callContent(r, tool.tool, block, {
      ...(quote ? { amountMinor: quote.costMinor, currency: quote.budget.currency, metered: tool.money === 'metered' } : {}),
      ...(quote?.wei !== undefined ? { wei: quote.wei } : {}),
    });
    const denial = block ? this.denialTexts(block, content.deny, cap, tool, quote) : undefined;
    const evidence =
      kind === 'trace_observation' ? [] : this.evidence(guardsFor(tool, quote !== undefined), block, denial, quote, kind === 'advisory_evaluation');
    const decision = kind === 'mediated_decision' ? this.decision(verdict, block, denial) : undefined;
    const attested = kind === 'trace_observation' || (kind === 'mediated_decision' && verdict === 'allow');
    const financial = quote && this.financial(cap, quote, verdict, block, tool, t);
    const chain = session && this.sessions.toolCall(session, seq, t, verdict, policy);
    const [parameters, redactionMode] = generation === 'B' ? redact(r, tool.tool, content.parameters) : [content.parameters, 'none' as const];
    return {
      seq,
      timestamp: t,
      generation,
      kind,
      nonce: `rcpt-${r.uuidV7(t * 1000 + r.int(0, 999))}`,
      cap,
      ...(call.grantIndex !== undefined ? { grantIndex: call.grantIndex } : {}),
      tool,
      parameters,
      output: attested ? content.output : null,
      ...(decision ? { decision } : {}),
      evidence,
      ...(financial ? { financial } : {}),
      ...(chain && session ? { session: { chain, purpose: session.purpose } } : {}),
      policyHash: policy,
      redactionMode,
    };
  }

  /** Who calls which granted tool: a due session's agent, or any agent by activity; in Gen B sometimes a trace or advisory record. */
  private choose(seq: number, generation: 'A' | 'B', t: number): Call {
    const r = this.r;
    const session = this.sessions.due(seq);
    const agent = session?.agent ?? r.weighted(this.actors.agents.map((a) => [a, a.weight] as const));
    const cap = this.actors.capabilityAt(agent, t);
    const free = agent.grants.flatMap((g, i) => (g.budgetTotal === undefined ? [i] : []));
    let kind: ReceiptKind = 'mediated_decision';
    if (generation === 'B' && !session && free.length > 0)
      kind = r.weighted<ReceiptKind>([
        ['mediated_decision', 95],
        ['trace_observation', 2.5],
        ['advisory_evaluation', 2.5],
      ]);
    const grantIndex = kind === 'mediated_decision' ? r.int(0, agent.grants.length - 1) : r.pick(free);
    return { ...(session ? { session } : {}), cap, kind, grantIndex, tool: agent.grants[grantIndex]!.tool, verdict: 'allow', block: null };
  }

  /** The guards' outcome: a verdict, the blocking guard of a denial, and the cost under a budgeted grant. */
  private judge(call: Call, t: number): Call {
    const r = this.r;
    const { kind, cap } = call;
    let verdict = r.weighted<Decision['verdict']>([
      ['allow', 78],
      ['deny', 15],
      ['cancelled', 4],
      ['incomplete', 3],
    ]);
    if (kind !== 'mediated_decision') verdict = kind === 'advisory_evaluation' && r.chance(0.3) ? 'deny' : 'allow';
    // An advisory evaluation runs on a granted tool, so the tool-grant guard never objects there.
    let block: GuardName | null = verdict === 'deny' ? this.blockingGuard(call.tool, kind === 'advisory_evaluation' ? 'mcp-tool' : undefined) : null;
    let { tool, grantIndex } = call;
    if (block === 'mcp-tool' && kind === 'mediated_decision') {
      // The agent asks for a tool its capability does not grant: no grant index, no budget.
      tool = r.pick(ALL_TOOLS.filter((s) => !cap.agent.grants.some((g) => g.tool === s)));
      grantIndex = undefined;
    }
    const quote = grantIndex === undefined ? undefined : this.finance.quote(cap, grantIndex, tool, t);
    if (quote && verdict !== 'deny' && this.finance.exceeds(quote)) {
      verdict = 'deny';
      block = 'budget';
    }
    return {
      ...(call.session ? { session: call.session } : {}),
      cap,
      kind,
      ...(grantIndex !== undefined ? { grantIndex } : {}),
      tool,
      verdict,
      block,
      ...(quote ? { quote } : {}),
    };
  }

  private decision(verdict: Decision['verdict'], block: GuardName | null, denial: { reason: string } | undefined): Decision {
    const r = this.r;
    if (verdict === 'deny') return { verdict, reason: denial!.reason, guard: block! };
    if (verdict === 'cancelled')
      return { verdict, reason: r.pick(['caller cancelled the request', 'session closed by the client', 'superseded by a newer request']) };
    if (verdict === 'incomplete')
      return { verdict, reason: r.pick(['tool server stream ended early', 'tool server timed out after 30s', 'connection to the tool server was lost']) };
    return { verdict };
  }

  private blockingGuard(tool: ToolSpec, exclude?: GuardName): GuardName {
    return this.r.weighted(tool.guards.filter((g) => DENY_WEIGHTS[g] > 0 && g !== exclude).map((g) => [g, DENY_WEIGHTS[g]] as const));
  }

  private denialTexts(
    block: GuardName,
    fromContent: { reason: string; details: string } | undefined,
    cap: Capability,
    tool: ToolSpec,
    quote?: Quote,
  ): { reason: string; details: string } {
    if (block === 'budget') return budgetTexts(quote!);
    if (block === 'mcp-tool') {
      return {
        reason: `tool ${tool.server}/${tool.tool} is not granted by capability ${cap.id}`,
        details: `granted: ${cap.agent.grants.map((g) => g.tool.tool).join(', ')}`,
      };
    }
    if (block === 'velocity') {
      const n = this.r.int(61, 95);
      return { reason: `rate limit exceeded for ${cap.agent.name}`, details: `${n} calls in the last 60 s (limit 60)` };
    }
    return fromContent ?? { reason: `${tool.tool} blocked by ${block}`, details: `${block} matched the call parameters` };
  }

  /** Guards in order; a denial stops at the blocking guard unless the evaluation is advisory only. */
  private evidence(
    guards: GuardName[],
    block: GuardName | null,
    denial: { details: string } | undefined,
    quote: Quote | undefined,
    advisory: boolean,
  ): Evidence[] {
    const out: Evidence[] = [];
    for (const g of guards) {
      if (g === block) {
        out.push({ guard_name: g, verdict: false, details: advisory ? `advisory only, would deny: ${denial!.details}` : denial!.details });
        if (!advisory) break;
        continue;
      }
      const details = g === 'budget' ? budgetTexts(quote!).pass : this.r.chance(0.25) ? passDetails(this.r, g) : undefined;
      out.push({ guard_name: g, verdict: true, ...(details !== undefined ? { details } : {}) });
    }
    return out;
  }

  private financial(cap: Capability, quote: Quote, verdict: Decision['verdict'], block: GuardName | null, tool: ToolSpec, t: number): Record<string, unknown> {
    const outcome = verdict === 'allow' ? 'charged' : block === 'budget' ? 'budget_denied' : 'not_charged';
    const fin = this.finance.financial(cap, quote, outcome, tool);
    // A drained budget gets the agent a fresh capability (new id, so a new budget group).
    const left = quote.budget.remaining;
    if (left * 20n < quote.budget.total || (outcome === 'budget_denied' && left * 4n < quote.budget.total)) this.actors.renew(cap.agent, t);
    return fin;
  }
}
