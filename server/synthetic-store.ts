// Synthetic Chio tool receipts for the receipt-query API tests and benchmark (not the demo).
// Deterministic per index, so a million rows can be streamed without holding them in memory.
// The receipts are real JSON in the Gen A shape (chio-format.md §4, §6) with fake hashes and
// signatures: the API serves bytes and never verifies them. Values are chosen so every filter
// of GET /v1/receipts/query has hits and misses: several tool servers and tools, all four
// decisions, out-of-order timestamps, capabilities whose lineage names a subject other than the
// row's subject_key (or no lineage at all), tenants, and u64 costs above 2^53 and 2^63.
import type { CapabilityLineageInput } from '../lib/sources/sqlite-store-writer';

export interface SyntheticReceipt {
  seq: number;
  rawJson: string;
  receiptId: string;
  timestamp: number;
  capabilityId: string;
  toolServer: string;
  toolName: string;
  decisionKind: 'allow' | 'deny' | 'cancelled' | 'incomplete';
  policyHash: string;
  contentHash: string;
  tenantId?: string;
  subjectKey?: string;
  issuerKey?: string;
  grantIndex?: number;
  /** metadata.financial.cost_charged, or null when the receipt has no financial metadata. */
  costCharged: bigint | null;
}

export type SyntheticLineage = CapabilityLineageInput;

export const SYNTHETIC_BASE_TIME = 1_775_000_000;
export const SYNTHETIC_CAPABILITIES = 400;
export const SYNTHETIC_SUBJECTS = 50;

const TOOLS: Record<string, string[]> = {
  filesystem: ['read_file', 'write_file', 'list_dir'],
  github: ['create_issue', 'merge_pr', 'read_file'],
  payments: ['charge', 'refund'],
  search: ['web_search'],
  'web3-evidence': ['build_cutover_readiness', 'sign_attestation'],
  '*': ['wildcard_tool'],
};
const SERVERS = Object.keys(TOOLS);
const TENANTS = ['tenant-acme', 'tenant-globex', 'tenant-initech'];
const BIG_COSTS = [
  9007199254740993n, // 2^53 + 1
  9223372036854775807n, // i64 max
  9223372036854775808n, // i64 max + 1
  12345678901234567891n,
  18446744073709551615n, // u64 max
];

/** 32-bit mix (splitmix-style); deterministic across platforms. */
function mix(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

function rng(seed: number): () => number {
  let state = mix(seed);
  return () => {
    state = mix(state + 0x9e3779b9);
    return state / 2 ** 32;
  };
}

function hex64(tag: string, n: number): string {
  let out = '';
  let h = mix(n ^ (tag.length * 0x1000193));
  for (let i = 0; i < 8; i++) {
    h = mix(h + i + tag.charCodeAt(i % tag.length));
    out += h.toString(16).padStart(8, '0');
  }
  return out;
}

export const subjectKey = (n: number): string => hex64('subject', n);
const issuerKey = (n: number): string => hex64('issuer', n);
export const capabilityId = (n: number): string => `cap-${hex64('cap', n).slice(0, 24)}`;
/** Capabilities 0, 10, 20, … have no lineage row; the others belong to subject (n * 7) mod 50. */
export const hasLineage = (cap: number): boolean => cap % 10 !== 0;
export const lineageSubject = (cap: number): number => (cap * 7) % SYNTHETIC_SUBJECTS;

export function syntheticLineage(): SyntheticLineage[] {
  const rows: SyntheticLineage[] = [];
  for (let cap = 0; cap < SYNTHETIC_CAPABILITIES; cap++) {
    if (!hasLineage(cap)) continue;
    rows.push({
      capabilityId: capabilityId(cap),
      subjectKey: subjectKey(lineageSubject(cap)),
      issuerKey: issuerKey(cap % 5),
      issuedAt: SYNTHETIC_BASE_TIME - 86_400,
      expiresAt: SYNTHETIC_BASE_TIME + 365 * 86_400,
      grantsJson: JSON.stringify([{ server_id: SERVERS[cap % SERVERS.length], tool_name: '*' }]),
      delegationDepth: cap % 3,
    });
  }
  return rows;
}

function pick<T>(r: () => number, items: readonly T[]): T {
  return items[Math.floor(r() * items.length)]!;
}

function decisionOf(r: () => number): SyntheticReceipt['decisionKind'] {
  const x = r();
  return x < 0.7 ? 'allow' : x < 0.88 ? 'deny' : x < 0.94 ? 'cancelled' : 'incomplete';
}

function costOf(r: () => number): bigint | null {
  const x = r();
  if (x < 0.45) return null;
  if (x < 0.5) return 0n;
  if (x < 0.53) return pick(r, BIG_COSTS) - BigInt(Math.floor(r() * 3));
  return BigInt(Math.floor(r() * 100_000));
}

function decisionJson(kind: SyntheticReceipt['decisionKind']): string {
  if (kind === 'allow') return '{"verdict":"allow"}';
  if (kind === 'deny') return '{"guard":"budget-guard","reason":"budget exhausted","verdict":"deny"}';
  return `{"reason":"${kind === 'cancelled' ? 'client went away' : 'tool timed out'}","verdict":"${kind}"}`;
}

/** metadata.financial, built as text so u64 amounts stay exact (JSON.stringify cannot). */
function financialJson(cost: bigint, depth: number, subject: string): string {
  const total = cost > 1_000_000n ? cost : 1_000_000n;
  return (
    `"financial":{"budget_remaining":${total - cost},"budget_total":${total},"cost_charged":${cost},` +
    `"currency":"${cost > 1n << 53n ? 'WEI' : 'USD'}","delegation_depth":${depth},"grant_index":0,` +
    `"root_budget_holder":${JSON.stringify(subject)},"settlement_status":"settled"}`
  );
}

/** Receipt number `seq` (1-based) of a synthetic store. */
export function syntheticReceipt(seq: number, seed = 1): SyntheticReceipt {
  const r = rng(seed * 1_000_003 + seq);
  const cap = Math.floor(r() * SYNTHETIC_CAPABILITIES);
  const toolServer = pick(r, SERVERS);
  const toolName = pick(r, TOOLS[toolServer]!);
  const decisionKind = decisionOf(r);
  const timestamp = SYNTHETIC_BASE_TIME + seq * 2 + Math.floor(r() * 61) - 30;
  const s = r();
  const subject = s < 0.7 ? lineageSubject(cap) : s < 0.85 ? null : Math.floor(r() * SYNTHETIC_SUBJECTS);
  const tenantId = r() < 0.25 ? undefined : pick(r, TENANTS);
  const costCharged = costOf(r);
  const id = `rcpt-${seq.toString(16).padStart(8, '0')}-${hex64('id', seq).slice(0, 12)}`;
  const contentHash = hex64('content', seq);
  const policyHash = hex64('policy', cap % 7);
  const kernelKey = issuerKey(99);
  const subjectHex = subjectKey(subject ?? lineageSubject(cap));
  const params = JSON.stringify({ path: `/srv/data/${seq % 97}/naïve ☃ 😀.txt`, n: seq, big: `${seq}` });
  const attribution = `"attribution":{"delegation_depth":${cap % 3},"grant_index":0,"issuer_key":"${issuerKey(cap % 5)}","subject_key":"${subjectHex}"}`;
  const metadata = costCharged === null ? `{${attribution}}` : `{${attribution},${financialJson(costCharged, cap % 3, subjectHex)}}`;
  const rawJson =
    `{"action":{"parameter_hash":"${hex64('params', seq)}","parameters":${params}},` +
    `"capability_id":"${capabilityId(cap)}","content_hash":"${contentHash}","decision":${decisionJson(decisionKind)},` +
    `"id":"${id}","kernel_key":"${kernelKey}","metadata":${metadata},"policy_hash":"${policyHash}",` +
    `"signature":"${hex64('sig-a', seq)}${hex64('sig-b', seq)}",` +
    (tenantId === undefined ? '' : `"tenant_id":"${tenantId}",`) +
    `"timestamp":${timestamp},"tool_name":"${toolName}","tool_server":"${toolServer}"}`;
  return {
    seq,
    rawJson,
    receiptId: id,
    timestamp,
    capabilityId: capabilityId(cap),
    toolServer,
    toolName,
    decisionKind,
    policyHash,
    contentHash,
    ...(tenantId === undefined ? {} : { tenantId }),
    ...(subject === null ? {} : { subjectKey: subjectKey(subject), issuerKey: issuerKey(cap % 5), grantIndex: 0 }),
    costCharged,
  };
}

export function syntheticReceipts(count: number, seed = 1): SyntheticReceipt[] {
  return Array.from({ length: count }, (_, i) => syntheticReceipt(i + 1, seed));
}
