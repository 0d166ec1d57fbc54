// The demo store: deterministic from its seed, and every receipt and checkpoint verifies through the real CLI path with the demo key pinned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verifyPaths } from '../../bin/cli/main';
import { TrustStore } from '../../lib/trust/trust-store';
import type { VerificationReport } from '../../lib/verdict/report';
import { parseJson } from '../../lib/json/parse';
import { isJsonObject, JsonNumber, type JsonObject } from '../../lib/json/value';
import { GUARD_ORDER } from './catalog';
import { DEMO_SEED_DEFAULT, demoKernelKeyHex, generateDemoStore, type GenerateResult } from './generate';

const COUNT = 1234;

type Row = Record<string, unknown>;
interface Dump {
  tools: Row[];
  children: Row[];
  claimLog: Row[];
  checkpoints: Row[];
  lineage: Row[];
}

function dump(file: string): Dump {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const all = (sql: string) => db.prepare(sql).all() as Row[];
    return {
      tools: all('SELECT * FROM chio_tool_receipts ORDER BY seq'),
      children: all('SELECT * FROM chio_child_receipts ORDER BY seq'),
      claimLog: all('SELECT entry_seq, receipt_id, receipt_kind, source_seq, timestamp FROM claim_receipt_log_entries ORDER BY entry_seq'),
      checkpoints: all('SELECT * FROM kernel_checkpoints ORDER BY checkpoint_seq'),
      lineage: all('SELECT * FROM capability_lineage ORDER BY rowid'),
    };
  } finally {
    db.close();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: plain JSON views of rows the test itself wrote
type Receipt = any;
const receipt = (row: Row): Receipt => JSON.parse(row.raw_json as string);
const dirs: string[] = [];
const tmp = () => {
  dirs.push(mkdtempSync(path.join(tmpdir(), 'ra-demo-')));
  return dirs[dirs.length - 1]!;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

let run: GenerateResult;
let store: Dump;
let tools: Receipt[];
let report: VerificationReport;

beforeAll(async () => {
  run = await generateDemoStore({ count: COUNT, out: tmp() });
  store = dump(run.storePath);
  tools = store.tools.map(receipt);
  const trust = TrustStore.create([{ key: demoKernelKeyHex() }]);
  if (!trust.ok) throw new Error(trust.error);
  report = await verifyPaths([run.storePath], trust.store);
});

describe('determinism', () => {
  it('the same seed gives identical rows, checkpoints and lineage, and an identical file', async () => {
    const again = await generateDemoStore({ count: COUNT, seed: DEMO_SEED_DEFAULT, out: tmp() });
    expect(dump(again.storePath)).toEqual(store);
    expect(again.counts).toEqual(run.counts);
    const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');
    expect(sha(again.storePath)).toBe(sha(run.storePath));
  });

  it('the kernel key is derived from the seed; another seed gives another log', async () => {
    expect(run.kernelKeyHex).toBe(demoKernelKeyHex(DEMO_SEED_DEFAULT));
    const other = await generateDemoStore({ count: 120, seed: 'another seed', out: tmp() });
    expect(other.kernelKeyHex).not.toBe(run.kernelKeyHex);
    expect(dump(other.storePath).tools[0]!.raw_json).not.toBe(store.tools[0]!.raw_json);
  });
});

describe('verification through the CLI path (demo key pinned)', () => {
  it('the log is ok: every receipt verified, every checkpoint verified, no problems', () => {
    const failed = report.receipts.filter((r) => r.verdict !== 'verified').map((r) => `${r.id}: ${JSON.stringify(r.details)}`);
    expect(failed).toEqual([]);
    expect(report.problems).toEqual([]);
    expect(report.summary).toEqual({
      receipts: COUNT + store.children.length,
      verified: COUNT + store.children.length,
      failed: 0,
      unverified: 0,
      checkpoints: 12,
      lineage: run.counts.capabilities,
      lineage_failed: 0,
    });
    // Every capability_lineage row carries its token, signed by its issuer (format v2 §16.9).
    expect(report.lineage!.every((l) => l.provenance === 'signed_token' && l.verdict === 'verified')).toBe(true);
    expect(report.checkpoints.every((c) => c.verdict === 'verified' && c.checks.continuity === 'pass' && c.checks.signer_trusted === 'pass')).toBe(true);
    expect(report.ok).toBe(true);
  });

  it('checkpointed tool receipts pass inclusion; the tail and the child receipts are uncheckpointed', () => {
    const tool = report.receipts.filter((r) => r.type === 'tool');
    expect(tool.length).toBe(COUNT);
    expect(tool.filter((r) => r.checks.inclusion === 'pass').length).toBe(1200);
    expect(tool.filter((r) => r.details?.inclusion === 'uncheckpointed').length).toBe(34);
    expect(report.receipts.filter((r) => r.type === 'child').every((r) => r.details?.inclusion === 'uncheckpointed')).toBe(true);
  });

  it('every budget reconciles: no breaks, nothing malformed or excluded', () => {
    expect(report.finance.budgets.length).toBe(run.counts.budgetGroups);
    expect(report.finance.budgets.flatMap((b) => b.breaks)).toEqual([]);
    expect(report.finance.malformed).toEqual([]);
    expect(report.finance.excluded).toEqual([]);
    expect(new Set(report.finance.budgets.map((b) => b.currency))).toEqual(new Set(['USD', 'EUR']));
  });
});

describe('content', () => {
  it('has all four decisions, and Gen B trace and advisory receipts without one', () => {
    const kinds = new Set(store.tools.map((r) => r.decision_kind));
    expect(kinds).toEqual(new Set(['allow', 'deny', 'cancelled', 'incomplete', 'none']));
    const allow = store.tools.filter((r) => r.decision_kind === 'allow').length / COUNT;
    const deny = store.tools.filter((r) => r.decision_kind === 'deny').length / COUNT;
    expect(allow).toBeGreaterThan(0.7);
    expect(deny).toBeGreaterThan(0.1);
    expect(deny).toBeLessThan(0.22);
  });

  it("a denial's evidence stops at the blocking guard; guards keep the fixed order", () => {
    const order = (e: Receipt[]) => e.map((g) => GUARD_ORDER.indexOf(g.guard_name));
    for (const r of tools) {
      const evidence: Receipt[] = r.evidence ?? [];
      expect(order(evidence)).toEqual([...order(evidence)].sort((a, b) => a - b));
      if (r.decision?.verdict === 'deny') {
        const last = evidence[evidence.length - 1];
        expect(last).toMatchObject({ guard_name: r.decision.guard, verdict: false });
        expect(typeof last.details).toBe('string');
        expect(evidence.slice(0, -1).every((g) => g.verdict === true)).toBe(true);
      } else if (r.decision) {
        expect(evidence.every((g) => g.verdict === true)).toBe(true);
      }
    }
    expect(tools.some((r) => r.evidence?.some((g: Receipt) => g.verdict && g.details))).toBe(true);
  });

  it('Gen A first, then Gen B after the kernel upgrade, with all three receipt kinds', () => {
    const genB = tools.map((r) => 'receipt_kind' in r);
    const upgrade = genB.indexOf(true);
    expect(upgrade).toBe(Math.floor(COUNT * 0.85));
    expect(genB.slice(upgrade).every(Boolean)).toBe(true);
    expect(
      tools.slice(0, upgrade).every((r) => /^rcpt-[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(r.id) && !('trust_level' in r)),
    ).toBe(true);
    const b = tools.slice(upgrade);
    expect(b.every((r) => /^[0-9a-f]{64}$/.test(r.id) && /^rcpt-/.test(r.metadata.chio_receipt_signing_nonce))).toBe(true);
    const byKind = (k: string) => b.filter((r) => r.receipt_kind === k);
    expect(byKind('trace_observation').length).toBeGreaterThan(0);
    expect(byKind('advisory_evaluation').length).toBeGreaterThan(0);
    for (const r of byKind('trace_observation'))
      expect(r).toMatchObject({ boundary_class: 'detect_only', observation_outcome: 'observed', trust_level: 'verified' });
    for (const r of byKind('advisory_evaluation'))
      expect(r).toMatchObject({ boundary_class: 'advisory_only', observation_outcome: 'evaluated', trust_level: 'advisory' });
    for (const r of byKind('mediated_decision'))
      expect(r).toMatchObject({ boundary_class: 'prevent', trust_level: 'mediated', tool_origin: 'caller_executed' });
    expect(b.filter((r) => r.receipt_kind !== 'mediated_decision').every((r) => !('decision' in r))).toBe(true);
  });

  it('budget denials charge nothing and carry the refused cost', () => {
    const denials = tools.filter((r) => r.decision?.guard === 'budget');
    expect(denials.length).toBeGreaterThan(0);
    for (const r of denials) {
      const f = r.metadata.financial;
      expect(f).toMatchObject({ cost_charged: 0, settlement_status: 'not_applicable' });
      expect(f.attempted_cost).toBeGreaterThan(f.budget_remaining);
    }
  });

  it("wei amounts above 2^53 survive byte-exact in raw_json and in the verifier's lossless tree", () => {
    const rows = store.tools.filter((r) => (r.raw_json as string).includes('"oracle_evidence"'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const text = row.raw_json as string;
      const parsed = parseJson(text);
      if (!parsed.ok || !isJsonObject(parsed.value)) throw new Error('unparseable');
      const fin = ((parsed.value.get('metadata') as JsonObject).get('financial') as JsonObject).get('oracle_evidence') as JsonObject;
      const wei = fin.get('original_cost_units') as JsonNumber;
      expect(wei).toBeInstanceOf(JsonNumber);
      expect(BigInt(wei.raw) > 2n ** 53n).toBe(true);
      expect(text).toContain(`"original_cost_units":${wei.raw},`);
      expect(text).toContain(`"amount_wei":${wei.raw},`);
    }
    // JSON.parse would have changed at least one of them.
    expect(
      rows.some((row) => !(row.raw_json as string).includes(String(JSON.parse(row.raw_json as string).metadata.financial.oracle_evidence.original_cost_units))),
    ).toBe(true);
  });

  it("every capability has a lineage row that matches the receipts' attribution", () => {
    const lineage = new Map(store.lineage.map((l) => [l.capability_id as string, l]));
    for (const l of store.lineage) if (l.parent_capability_id !== null) expect(lineage.has(l.parent_capability_id as string)).toBe(true);
    expect(store.lineage.some((l) => (l.delegation_depth as number) === 2)).toBe(true);
    for (const r of tools) {
      const l = lineage.get(r.capability_id);
      expect(l, r.capability_id).toBeDefined();
      const a = r.metadata.attribution;
      expect([a.subject_key, a.issuer_key, a.delegation_depth]).toEqual([l!.subject_key, l!.issuer_key, l!.delegation_depth]);
    }
    expect(tools.filter((r) => r.tenant_id).length).toBe(run.counts.tenantReceipts);
    expect(run.counts.tenantReceipts).toBeGreaterThan(0);
    expect(run.counts.tenantReceipts).toBeLessThan(COUNT);
  });

  it('session tool receipts link to their tool_call child receipts; child requests form trees', () => {
    const children = store.children.map(receipt);
    const byId = new Map(children.map((c) => [c.id, c]));
    const linked = tools.filter((r) => r.metadata.governed_transaction);
    expect(linked.length).toBe(run.counts.sessionToolReceipts);
    const referenced = new Set<string>();
    for (const r of linked) {
      const chain = r.metadata.governed_transaction.call_chain;
      const c = byId.get(chain.parent_receipt_id);
      expect(c).toMatchObject({
        operation_kind: 'tool_call',
        session_id: chain.session_id,
        request_id: chain.request_id,
        parent_request_id: chain.parent_request_id,
      });
      referenced.add(chain.parent_receipt_id);
    }
    expect(
      children
        .filter((c) => c.operation_kind === 'tool_call')
        .map((c) => c.id)
        .sort(),
    ).toEqual([...referenced].sort());
    const toolCallRequests = new Set(children.filter((c) => c.operation_kind === 'tool_call').map((c) => c.request_id));
    expect(children.some((c) => toolCallRequests.has(c.parent_request_id))).toBe(true); // nested requests
    expect(new Set(children.map((c) => c.terminal_state.state))).toEqual(new Set(['completed', 'cancelled', 'incomplete']));
    expect(children.length / COUNT).toBeGreaterThan(1 / 12);
    expect(children.length / COUNT).toBeLessThan(1 / 5);
  });

  it('checkpoints cover tool seq in batches of 100; the claim log interleaves children in time order', () => {
    expect(store.checkpoints.length).toBe(Math.floor(COUNT / 100));
    store.checkpoints.forEach((c, i) => {
      expect([c.batch_start_seq, c.batch_end_seq, c.tree_size]).toEqual([i * 100 + 1, i * 100 + 100, 100]);
      const body = JSON.parse(c.statement_json as string);
      expect(body.merkle_root).toBe(`0x${c.merkle_root}`);
      expect('previous_checkpoint_sha256' in body).toBe(i > 0);
    });
    const kinds = store.claimLog.map((e) => e.receipt_kind);
    expect(kinds.indexOf('child_receipt')).toBeLessThan(100);
    const times = store.claimLog.map((e) => e.timestamp as number);
    expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
  });

  it('v1 checkpoints, then v2 from the middle of the log: each v2 chain_root covers every checkpoint since the first', () => {
    const schemas = store.checkpoints.map((c) => (JSON.parse(c.statement_json as string) as { schema: string }).schema);
    const half = Math.floor(COUNT / 2);
    store.checkpoints.forEach((c, i) => {
      const body = JSON.parse(c.statement_json as string) as { chain_root?: string };
      const v2 = (c.batch_end_seq as number) > half;
      expect(schemas[i]).toBe(v2 ? 'chio.checkpoint_statement.v2' : 'chio.checkpoint_statement.v1');
      expect(body.chain_root !== undefined).toBe(v2);
    });
    expect(schemas.filter((x) => x.endsWith('.v1')).length).toBeGreaterThan(0);
    expect(schemas.filter((x) => x.endsWith('.v2')).length).toBeGreaterThan(0);
    const v2 = report.checkpoints.filter((c) => c.schema === 'chio.checkpoint_statement.v2');
    expect(v2.map((c) => c.checks.chain)).toEqual(v2.map(() => 'pass'));
  });

  it("a Claude Code agent's calls through chio-bridge: the transcript beside the store verifies alone and merges into the store's receipts", async () => {
    const file = path.join(path.dirname(run.storePath), 'claude-code-session.jsonl');
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines.map((l) => l.type)).toEqual(['system', ...Array(run.counts.bridgedCalls).fill(['assistant', 'user']).flat(), 'result']);
    expect(run.counts.bridgedCalls).toBe(6);
    const trust = TrustStore.create([{ key: demoKernelKeyHex() }]);
    if (!trust.ok) throw new Error(trust.error);
    const alone = await verifyPaths([file], trust.store);
    expect(alone.ok).toBe(true);
    expect(alone.receipts.map((r) => [r.verdict, r.checks.content_hash, r.checks.delivery])).toEqual(Array(6).fill(['verified', 'pass', 'pass']));
    expect(alone.receipts.every((r) => r.envelope?.state === 'completed' && r.envelope.claimed)).toBe(true);
    // With the store: the same receipts, once each, now also included in their checkpoints.
    const both = await verifyPaths([run.storePath, file], trust.store);
    expect(both.ok).toBe(true);
    expect(both.summary.receipts).toBe(report.summary.receipts);
    const bridged = both.receipts.filter((r) => r.checks.delivery !== undefined);
    expect(bridged.map((r) => [r.checks.content_hash, r.checks.delivery, r.checks.inclusion])).toEqual(Array(6).fill(['pass', 'pass', 'pass']));
  });

  it('the store is in rollback-journal mode with no -wal, -shm or -journal file beside it', () => {
    const header = readFileSync(run.storePath).subarray(18, 20);
    expect([...header]).toEqual([1, 1]);
    expect(readdirSync(path.dirname(run.storePath)).sort()).toEqual(['claude-code-session.jsonl', 'receipts.sqlite3']);
  });
});

describe('the published demo key', () => {
  it('lib/trust/known-keys.ts names the key the default seed derives', async () => {
    const { DEMO_KERNEL_KEY } = await import('../../lib/trust/known-keys');
    expect(demoKernelKeyHex()).toBe(DEMO_KERNEL_KEY);
  });
});

describe("npm start's demo step (ensure-demo.ts)", () => {
  it('creates the store and its package once, then leaves them alone; the package verifies', async () => {
    const { ensureDemo } = await import('./ensure-demo');
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'ra-ensure-')), 'demo');
    expect((await ensureDemo(dir, 321)).created).toBe(true);
    const again = await ensureDemo(dir, 321);
    expect(again.created).toBe(false);
    const { verifyPaths } = await import('../../bin/cli/main');
    const { TrustStore } = await import('../../lib/trust/trust-store');
    const trust = TrustStore.create([{ key: demoKernelKeyHex() }]);
    if (!trust.ok) throw new Error(trust.error);
    const report = await verifyPaths([again.pkg], trust.store);
    expect(report.ok).toBe(true);
    expect(report.packages[0]!.checks.manifest).toBe('pass');
    expect(report.summary.verified).toBe(report.summary.receipts);
  });
});
