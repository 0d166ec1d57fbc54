// The adversarial suite for receipts carried in envelopes (contract part 2 §5.4): seeded variants of
// a real Claude Code transcript (the demo producer's chio-bridge session, signed by its kernel),
// one tamper each, run through the command line's verifier. The invariant: nothing tampered is
// `verified`, nothing untampered is `failed`; each variant raises the code it must, and every
// envelope code is required by many variants. A wrapper's claims are only claims: changing them
// changes no verdict.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPaths } from '../../bin/cli/main';
import { generateDemoStore } from '../../tools/demo/generate';
import { demoKey, demoKernelKeyHex } from '../../tools/demo/sign';
import { Prng } from '../../tools/demo/prng';
import { parseJson } from '../json/parse';
import { compactJson } from '../json/pretty';
import { type JsonObject, type JsonValue, isJsonObject } from '../json/value';
import { resign } from '../../test/support/adversary';
import { TrustStore } from '../trust/trust-store';
import { ENVELOPE_PROBLEM_CODES, type ProblemCode } from '../verdict/problems';

const SEED = 'envelope-adversary-1';
let dir: string;
let lines: string[];
/** Indexes of the lines that carry an outcome (the tool results). */
let results: number[];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ra-env-adv-'));
  const { storePath } = await generateDemoStore({ count: 2437, out: path.join(dir, 'store') });
  lines = readFileSync(path.join(path.dirname(storePath), 'claude-code-session.jsonl'), 'utf8')
    .trim()
    .split('\n');
  results = lines.flatMap((l, i) => ((JSON.parse(l) as { type: string }).type === 'user' ? [i] : []));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Variant {
  name: string;
  lines: string[];
  /** Line number (1-based) → the verdict and codes its receipt must have. */
  targets: Map<number, { verdict: 'failed' | 'verified'; codes: ProblemCode[] }>;
}

const obj = (text: string): JsonObject => {
  const p = parseJson(text);
  if (!p.ok || !isJsonObject(p.value)) throw new Error('parse');
  return p.value;
};

/** The outcome of a tool-result line, edited, written back into both places the line holds it. */
function editOutcome(line: string, edit: (outcome: JsonObject) => void): string {
  const l = JSON.parse(line) as { message: { content: { content: { text: string }[] }[] }; tool_use_result: { text: string }[] };
  const outcome = obj(l.message.content[0]!.content[0]!.text);
  edit(outcome);
  const text = compactJson(outcome);
  l.message.content[0]!.content[0]!.text = text;
  l.tool_use_result[0]!.text = text;
  return JSON.stringify(l);
}

const at = (o: JsonObject, ...keys: string[]): JsonObject => keys.reduce((x, k) => x.get(k) as JsonObject, o);
const changed = (v: JsonValue | undefined, rng: Prng): string => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  const i = rng.int(0, s.length - 1);
  return s.slice(0, i) + (s[i] === 'a' ? 'b' : 'a') + s.slice(i + 1);
};

function variants(n: number): Variant[] {
  const rng = new Prng(SEED, 'envelopes');
  const attacker = demoKey(SEED, 'attacker');
  const out: Variant[] = [];
  const one = (name: string, i: number, text: string, verdict: 'failed' | 'verified', codes: ProblemCode[], extra: string[] = []) => {
    const copy = [...lines];
    copy[i] = text;
    out.push({ name, lines: [...copy, ...extra], targets: new Map([[i + 1, { verdict, codes }]]) });
  };
  for (let k = 0; k < n; k++) {
    const i = rng.pick(results);
    const kind = rng.pick(['result', 'delivery', 'requestId', 'claims', 'signed', 'second body'] as const);
    if (kind === 'result') {
      // What the tool returned, changed: it is no longer what the kernel bound.
      one(
        `line ${i + 1}: the carried result changed`,
        i,
        editOutcome(lines[i]!, (o) => at(o, 'result', 'structuredContent').set('tampered', true)),
        'failed',
        ['content_hash_mismatch'],
      );
    } else if (kind === 'delivery') {
      const field = rng.pick(['requestId', 'requestHash', 'receiptId', 'resultHash', 'acknowledgement'] as const);
      if (field === 'acknowledgement' && rng.chance(0.5)) {
        // How the kernel computes its acknowledgement is not published (UNCONFIRMED): another
        // well-formed value cannot be told from the real one, and it vouches for nothing we count.
        one(
          `line ${i + 1}: delivery.acknowledgement replaced by another well-formed value (opaque, not checkable)`,
          i,
          editOutcome(lines[i]!, (o) => at(o, 'delivery').set(field, changed(at(o, 'delivery').get(field), rng))),
          'verified',
          [],
        );
      } else {
        const malformed = (v: JsonValue | undefined) => (field === 'acknowledgement' ? `${String(v).slice(0, 40)}!` : changed(v, rng));
        one(
          `line ${i + 1}: delivery.${field} changed`,
          i,
          editOutcome(lines[i]!, (o) => at(o, 'delivery').set(field, malformed(at(o, 'delivery').get(field)))),
          'failed',
          ['delivery_mismatch'],
        );
      }
    } else if (kind === 'requestId') {
      one(
        `line ${i + 1}: the outcome's requestId changed`,
        i,
        editOutcome(lines[i]!, (o) => o.set('requestId', changed(o.get('requestId'), rng))),
        'failed',
        ['envelope_invalid'],
      );
    } else if (kind === 'claims') {
      // The wrapper's words flipped: claims, never verdicts.
      one(
        `line ${i + 1}: state and evidence claims flipped`,
        i,
        editOutcome(lines[i]!, (o) => {
          o.set('state', rng.pick(['denied', 'unknown', 'not_dispatched']));
          o.set('evidence', 'unverified');
        }),
        'verified',
        [],
      );
    } else if (kind === 'signed') {
      one(
        `line ${i + 1}: a signed field of the receipt changed`,
        i,
        editOutcome(lines[i]!, (o) => at(o, 'receipt').set('tool_name', 'exfiltrate')),
        'failed',
        ['signature_invalid'],
      );
    } else {
      // Another body under the same id, signed by an attacker, on a line of its own.
      const forged = editOutcome(lines[i]!, (o) => {
        const r = at(o, 'receipt');
        r.set('tool_server', 'srv-attacker');
        resign(r, 'tool', attacker);
        r.set('id', at(obj(JSON.parse(lines[i]!).message.content[0].content[0].text), 'receipt').get('id')!);
      });
      const copy = [...lines, forged];
      out.push({
        name: `line ${i + 1}: a second body under its id`,
        lines: copy,
        targets: new Map([[copy.length, { verdict: 'failed', codes: ['envelope_invalid'] }]]),
      });
    }
  }
  return out;
}

describe('envelope adversary (a real Claude Code transcript, tampered)', () => {
  it('the untampered transcript verifies completely', async () => {
    const file = path.join(dir, 'base.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    const trust = TrustStore.create([{ key: demoKernelKeyHex() }]);
    if (!trust.ok) throw new Error(trust.error);
    const r = await verifyPaths([file], trust.store);
    expect(r.ok).toBe(true);
    expect(r.receipts.map((x) => x.verdict)).toEqual(results.map(() => 'verified'));
  });

  it('every envelope code is required by many variants', () => {
    const count = new Map<string, number>();
    for (const v of variants(120)) for (const t of v.targets.values()) for (const c of t.codes) count.set(c, (count.get(c) ?? 0) + 1);
    expect(ENVELOPE_PROBLEM_CODES.filter((c) => (count.get(c) ?? 0) < 10).map((c) => `${c}: ${count.get(c) ?? 0}`)).toEqual([]);
  });

  it('no tampered receipt is verified, no untampered one failed, each target with its codes', async () => {
    const trust = TrustStore.create([{ key: demoKernelKeyHex() }]);
    if (!trust.ok) throw new Error(trust.error);
    const wrong: string[] = [];
    for (const [k, v] of variants(120).entries()) {
      const file = path.join(dir, `v${k}.jsonl`);
      writeFileSync(file, v.lines.join('\n') + '\n');
      const r = await verifyPaths([file], trust.store);
      for (const rec of r.receipts) {
        const t = v.targets.get(rec.line);
        if (t) {
          if (rec.verdict === 'verified' && t.verdict !== 'verified') wrong.push(`${v.name}: tampered but verified`);
          if (rec.verdict !== t.verdict) wrong.push(`${v.name}: ${rec.verdict}, expected ${t.verdict}`);
          const codes = new Set(r.problems.filter((p) => p.line === rec.line || p.receipt_id === rec.id).map((p) => p.code));
          for (const c of t.codes) if (!codes.has(c)) wrong.push(`${v.name}: no ${c} (has ${[...codes].join(', ') || 'none'})`);
        } else if (rec.verdict === 'failed' && ![...v.targets.values()].some((x) => x.codes.includes('envelope_invalid'))) {
          wrong.push(`${v.name}: untampered line ${rec.line} failed`);
        }
      }
    }
    expect(wrong.slice(0, 20)).toEqual([]);
  }, 300_000);
});
