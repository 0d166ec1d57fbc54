// The demo's organizations, agents and capabilities: delegation chains, tenants, budgeted grants, renewals and their capability_lineage rows.
import type { CapabilityLineageInput } from '../../lib/sources/sqlite-store-writer';
import { TOOLS, type ToolName, type ToolSpec } from './catalog';
import { compactJson, int, struct } from './json-tree';
import type { Prng } from './prng';
import { demoKey } from './sign';

export interface Org {
  id: string;
  /** Set for enterprise tenants: their receipts carry `tenant_id`. */
  tenantId?: string;
  currency: 'USD' | 'EUR';
  authorityKey: string;
}

export interface Agent {
  name: string;
  org: Org;
  subjectKey: string;
  weight: number;
  parent?: Agent;
  grants: { tool: ToolSpec; budgetTotal?: bigint }[];
  /** Pays some transfers in ETH, converted by an oracle (chio.oracle-conversion-evidence.v1). */
  eth?: boolean;
}

export interface Budget {
  total: bigint;
  remaining: bigint;
  currency: string;
}

export interface Capability {
  id: string;
  agent: Agent;
  issuerKey: string;
  issuedAt: number;
  expiresAt: number;
  depth: number;
  parentId?: string;
  /** Budgets per grant index (budgeted grants only). */
  budgets: Map<number, Budget>;
}

export type LineageRow = CapabilityLineageInput & { parentCapabilityId: string | null };

const DAY = 86_400;
const LIFETIME = 30 * DAY;

type AgentDef = [name: string, org: string, weight: number, grants: [ToolName, number?][], parent?: string, eth?: boolean];
const AGENTS: readonly AgentDef[] = [
  ['research-agent', 'org-acme', 12, [['file_read'], ['list_dir'], ['http_get', 40_000], ['http_post']]],
  ['build-agent', 'org-acme', 15, [['file_read'], ['file_write'], ['file_delete'], ['list_dir'], ['run_command'], ['http_get']]],
  ['ops-agent', 'org-acme', 10, [['run_command'], ['file_read'], ['list_dir'], ['http_get']], 'build-agent'],
  ['billing-agent', 'org-acme', 9, [['transfer_funds', 5_000_000], ['refund', 1_500_000], ['sql_query'], ['send_email']]],
  ['refund-agent', 'org-acme', 5, [['refund', 400_000], ['send_email'], ['sql_query']], 'billing-agent'],
  ['notify-agent', 'org-acme', 3, [['send_email']], 'refund-agent'],
  ['support-agent', 'org-globex', 10, [['file_read'], ['send_email'], ['sql_query'], ['refund', 800_000]]],
  ['analytics-agent', 'org-globex', 10, [['sql_query', 150_000], ['file_write'], ['http_get']]],
  ['treasury-agent', 'org-initech', 6, [['transfer_funds', 3_000_000], ['http_get', 30_000]], undefined, true],
  ['dev-agent', 'org-initech', 14, [['file_read'], ['file_write'], ['list_dir'], ['run_command'], ['http_post']]],
];
const ORGS: readonly [string, 'USD' | 'EUR', string | undefined][] = [
  ['org-acme', 'USD', undefined],
  ['org-globex', 'EUR', 'tenant-globex'],
  ['org-initech', 'USD', 'tenant-initech'],
];

/** The agents and their current capabilities; renewals are reported through `onLineage`. */
export class Actors {
  readonly agents: Agent[] = [];
  private readonly current = new Map<Agent, Capability>();

  constructor(
    private readonly r: Prng,
    seed: string,
    start: number,
    private readonly onLineage: (row: LineageRow) => void,
  ) {
    const orgs = new Map<string, Org>();
    for (const [id, currency, tenantId] of ORGS) {
      orgs.set(id, { id, currency, authorityKey: demoKey(seed, `authority:${id}`).publicHex, ...(tenantId ? { tenantId } : {}) });
    }
    const byName = new Map<string, Agent>();
    for (const [name, orgId, weight, grants, parent, eth] of AGENTS) {
      const agent: Agent = {
        name,
        org: orgs.get(orgId)!,
        subjectKey: demoKey(seed, `agent:${name}`).publicHex,
        weight,
        grants: grants.map(([t, budget]) => ({ tool: TOOLS[t], ...(budget ? { budgetTotal: BigInt(budget) } : {}) })),
        ...(parent ? { parent: byName.get(parent)! } : {}),
        ...(eth ? { eth } : {}),
      };
      byName.set(name, agent);
      this.agents.push(agent);
    }
    // Parents come first in AGENTS, so every delegated capability finds its parent's, and is
    // issued after it (renewals happen at `now`, after the parent's own issue time anyway).
    for (const agent of this.agents) {
      const at = start - r.int(1, 10) * DAY + r.int(0, DAY - 1);
      const parent = agent.parent && this.current.get(agent.parent);
      this.issue(agent, parent ? Math.min(start - 60, Math.max(at, parent.issuedAt + r.int(60, 3600))) : at);
    }
  }

  /** The agent's capability at `now`, renewing it (and its parents first) when it is about to expire. */
  capabilityAt(agent: Agent, now: number): Capability {
    if (agent.parent) this.capabilityAt(agent.parent, now);
    const cap = this.current.get(agent)!;
    return now >= cap.expiresAt - DAY ? this.issue(agent, now) : cap;
  }

  /** Replaces the agent's capability with a fresh one (new budgets), e.g. after its budget ran out. */
  renew(agent: Agent, now: number): Capability {
    return this.issue(agent, now);
  }

  private issue(agent: Agent, issuedAt: number): Capability {
    const parent = agent.parent ? this.current.get(agent.parent)! : undefined;
    const expiresAt = parent ? Math.min(parent.expiresAt, issuedAt + LIFETIME) : issuedAt + LIFETIME;
    const budgets = new Map<number, Budget>();
    agent.grants.forEach((g, i) => {
      if (g.budgetTotal !== undefined) budgets.set(i, { total: g.budgetTotal, remaining: g.budgetTotal, currency: agent.org.currency });
    });
    const cap: Capability = {
      id: `cap-${this.r.uuidV7(issuedAt * 1000 + this.r.int(0, 999))}`,
      agent,
      issuerKey: parent ? parent.agent.subjectKey : agent.org.authorityKey,
      issuedAt,
      expiresAt,
      depth: parent ? parent.depth + 1 : 0,
      ...(parent ? { parentId: parent.id } : {}),
      budgets,
    };
    this.current.set(agent, cap);
    this.onLineage({
      capabilityId: cap.id,
      subjectKey: agent.subjectKey,
      issuerKey: cap.issuerKey,
      issuedAt,
      expiresAt,
      grantsJson: grantsJson(agent),
      delegationDepth: cap.depth,
      parentCapabilityId: cap.parentId ?? null,
    });
    return cap;
  }
}

/** `{"grants":[ToolGrant…]}` in struct order, as the kernel stores a capability's scope. */
function grantsJson(agent: Agent): string {
  const grants = agent.grants.map((g) =>
    struct([
      ['server_id', g.tool.server],
      ['tool_name', g.tool.tool],
      ['operations', ['invoke']],
      ['max_total_cost', g.budgetTotal !== undefined ? struct([['units', int(g.budgetTotal)], ['currency', agent.org.currency]]) : undefined],
    ]),
  );
  return compactJson(struct([['grants', grants]]));
}
