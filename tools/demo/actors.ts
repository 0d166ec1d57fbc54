// The demo's organizations, agents and capabilities: delegation chains, tenants, budgeted grants, renewals and their capability_lineage rows.
// Each capability is a chio.capability.v1 token signed by its issuer (format v2 §16.9), kept in its lineage row.
import { canonicalBytes } from '../../lib/json/canonicalize';
import type { JsonObject } from '../../lib/json/value';
import type { CapabilityLineageInput } from '../../lib/sources/sqlite-store-writer';
import { TOOLS, type ToolName, type ToolSpec } from './catalog';
import { compactJson, int, struct } from './json-tree';
import type { Prng } from './prng';
import { type DemoKey, demoKey } from './sign';

export interface Org {
  id: string;
  /** Set for enterprise tenants: their receipts carry `tenant_id`. */
  tenantId?: string;
  currency: 'USD' | 'EUR';
  authorityKey: string;
  /** Signs the org's root capabilities. */
  authority: DemoKey;
}

export interface Agent {
  name: string;
  org: Org;
  subjectKey: string;
  /** The agent's key: signs the capabilities it delegates. */
  key: DemoKey;
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
  /** The signed delegation links from the root capability to this one (empty for a root). */
  chain: JsonObject[];
  /** Budgets per grant index (budgeted grants only). */
  budgets: Map<number, Budget>;
}

export type LineageRow = CapabilityLineageInput & { parentCapabilityId: string | null; provenance: 'signed_token'; signedCapabilityJson: string };

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
  [
    'treasury-agent',
    'org-initech',
    6,
    [
      ['transfer_funds', 3_000_000],
      ['http_get', 30_000],
    ],
    undefined,
    true,
  ],
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
      const authority = demoKey(seed, `authority:${id}`);
      orgs.set(id, { id, currency, authorityKey: authority.publicHex, authority, ...(tenantId ? { tenantId } : {}) });
    }
    const byName = new Map<string, Agent>();
    for (const [name, orgId, weight, grants, parent, eth] of AGENTS) {
      const key = demoKey(seed, `agent:${name}`);
      const agent: Agent = {
        name,
        org: orgs.get(orgId)!,
        subjectKey: key.publicHex,
        key,
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
    const id = `cap-${this.r.uuidV7(issuedAt * 1000 + this.r.int(0, 999))}`;
    // A delegated capability's issuer is the parent's holder, who also signs the link to it.
    const issuer = parent ? parent.agent.key : agent.org.authority;
    const chain = parent ? [...parent.chain, delegationLink(parent.id, issuer, agent.subjectKey, issuedAt)] : [];
    const cap: Capability = {
      id,
      agent,
      issuerKey: issuer.publicHex,
      issuedAt,
      expiresAt,
      depth: parent ? parent.depth + 1 : 0,
      ...(parent ? { parentId: parent.id } : {}),
      chain,
      budgets,
    };
    this.current.set(agent, cap);
    const scope = grantsScope(agent);
    this.onLineage({
      capabilityId: cap.id,
      subjectKey: agent.subjectKey,
      issuerKey: cap.issuerKey,
      issuedAt,
      expiresAt,
      grantsJson: compactJson(scope),
      delegationDepth: cap.depth,
      parentCapabilityId: cap.parentId ?? null,
      provenance: 'signed_token',
      signedCapabilityJson: compactJson(capabilityToken(cap, scope, issuer)),
    });
    return cap;
  }
}

/**
 * The capability as a `chio.capability.v1` token, fields in CapabilityToken's order, signed by
 * its issuer over RFC 8785 of the token without `signature` (the schema-aware signing body).
 */
function capabilityToken(cap: Capability, scope: JsonObject, issuer: DemoKey): JsonObject {
  const body = struct([
    ['schema', 'chio.capability.v1'],
    ['id', cap.id],
    ['issuer', cap.issuerKey],
    ['subject', cap.agent.subjectKey],
    ['scope', scope],
    ['issued_at', int(cap.issuedAt)],
    ['expires_at', int(cap.expiresAt)],
    ['delegation_chain', cap.chain.length > 0 ? cap.chain : undefined],
  ]);
  body.set('signature', issuer.sign(canonicalBytes(body)));
  return body;
}

/** A DelegationLink: `delegator` handed capability `capabilityId` on to `delegatee`, signed by the delegator. */
function delegationLink(capabilityId: string, delegator: DemoKey, delegatee: string, timestamp: number): JsonObject {
  const link = struct([
    ['capability_id', capabilityId],
    ['delegator', delegator.publicHex],
    ['delegatee', delegatee],
    ['timestamp', int(timestamp)],
  ]);
  link.set('signature', delegator.sign(canonicalBytes(link)));
  return link;
}

/** `{"grants":[ToolGrant…]}` in struct order, as the kernel stores a capability's scope. */
function grantsScope(agent: Agent): JsonObject {
  const grants = agent.grants.map((g) =>
    struct([
      ['server_id', g.tool.server],
      ['tool_name', g.tool.tool],
      ['operations', ['invoke']],
      [
        'max_total_cost',
        g.budgetTotal !== undefined
          ? struct([
              ['units', int(g.budgetTotal)],
              ['currency', agent.org.currency],
            ])
          : undefined,
      ],
    ]),
  );
  return struct([['grants', grants]]);
}
