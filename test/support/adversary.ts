// Test-only: the adversarial corpus (issue 7). From a seed it builds a small, valid, signed
// evidence package with the demo producer (Gen A and Gen B tool receipts, child receipts,
// financial receipts, seven chained checkpoints of four receipts, inclusion proofs and an
// uncheckpointed tail), then makes seeded variants of it, one tamper each, in every tamper
// class of the issue. Each variant says what a correct verifier must report:
//   - its targets (the tampered receipts and checkpoints, by file and line): the exact verdict
//     and the problem codes that must be raised there;
//   - its zone: untampered records a tamper may leave `unverified` (never `failed`), such as the
//     receipts of a batch whose checkpoint was forged;
//   - codes that must appear somewhere, and whether the log is `ok`.
// `judge` (./adversary-judge.ts) compares a report with that. The invariant over everything: no
// target is `verified` and no untampered receipt is `failed`. The command line runs a variant
// through ./adversary-cli.ts.
//
// The attacker recomputes manifest.json after each change (hashes, sizes and counts), unless the
// manifest itself is the tamper, so each variant tests the checks behind the manifest.
// The kernel's own secret key is used only for kernel misbehaviour (a fork, a broken chain, a
// wrong tree_size), which only the kernel can sign; everything an outsider can do uses other keys.
// Over 400 lines because the tamper classes are one table (MAKERS) over one Draft builder and
// the helpers every class uses; split by class group, each file would import most of this one.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportDemoPackage, generateDemoStore } from '../../tools/demo/generate';
import { Prng } from '../../tools/demo/prng';
import { demoKernelKey, demoKey, type DemoKey } from '../../tools/demo/sign';
import { compactJson } from '../../tools/demo/json-tree';
import { fromHex, toHex } from '../../lib/bytes/hex';
import { sha256Hex } from '../../lib/crypto/sha256';
import { canonicalBytes } from '../../lib/json/canonicalize';
import { parseJson } from '../../lib/json/parse';
import { JsonNumber, isJsonArray, isJsonNumber, isJsonObject, type JsonObject, type JsonValue } from '../../lib/json/value';
import { decodeToolReceipt } from '../../lib/chio/tool-receipt';
import { decodeChildReceipt } from '../../lib/chio/child-receipt';
import { decodeCapabilityToken } from '../../lib/chio/capability-token';
import type { ProblemCode } from '../../lib/verdict/problems';

export const TAMPER_CLASSES = [
  'signed-field',
  'checkpoint-field',
  'signature-bit',
  'malleable-signature',
  'key-swap',
  'unpinned-resign',
  'delete',
  'insert',
  'substitute',
  'reorder',
  'fork',
  'rollback',
  'chain-broken',
  'tree-size',
  'duplicate-key',
  'big-number',
  'unicode',
  'unsigned-field',
  'algorithm-lie',
  'manifest',
  'generation-confusion',
  'semantics',
  'legacy-canonicalization',
  'reconciliation',
  'chain-root',
  'transparency',
  'proof-position',
  'lineage',
  'package-query',
] as const;
export type TamperClass = (typeof TAMPER_CLASSES)[number];

export type ExpectedVerdict = 'verified' | 'failed' | 'unverified' | 'absent';

export interface Target {
  verdict: ExpectedVerdict;
  /** Codes that must be raised at this record (by file and line, or its receipt id). */
  codes: ProblemCode[];
}

export interface Variant {
  cls: TamperClass;
  /** What was done, for failure messages. */
  name: string;
  /** The package's files, manifest.json included. */
  files: Record<string, string>;
  /** `file:line` → what must be reported there. */
  targets: Map<string, Target>;
  /** `file:line` of untampered receipts that may be `unverified`, and checkpoints that may fail. */
  zone: Set<string>;
  /** Codes that must appear somewhere in the report. */
  codes: ProblemCode[];
  /** Whether the log must come out `ok` (undefined: not asserted beyond the targets). */
  ok?: boolean;
  /** True when the tamper changes nothing a verifier could or should see (e.g. a line moved): every record must stay verified. */
  harmless?: boolean;
}

const RECEIPTS = 'receipts.ndjson';
const CHILDREN = 'child-receipts.ndjson';
const CHECKPOINTS = 'checkpoints.ndjson';
const PROOFS = 'inclusion-proofs.ndjson';
const MANIFEST = 'manifest.json';
const LINEAGE = 'capability-lineage.ndjson';
/** manifest `counts` key → the file whose records it counts. */
const COUNTED: Record<string, string> = {
  toolReceipts: RECEIPTS,
  childReceipts: CHILDREN,
  checkpoints: CHECKPOINTS,
  inclusionProofs: PROOFS,
  capabilityLineage: LINEAGE,
};

/** Ed25519 group order L. */
const L = 2n ** 252n + 27742317777372353535851937790883648493n;

export type Kind = 'tool' | 'child' | 'checkpoint';

/** One line of an NDJSON file, with what the generator knows about it and what a tamper expects of it. */
export interface Line {
  text: string;
  kind?: Kind;
  /** Tool/child receipt: the wrapper seq; checkpoint: checkpoint_seq. */
  seq?: number;
  /** Receipts: the checkpoint covering it (undefined for the tail and child receipts). */
  checkpointSeq?: number;
  generation?: 'A' | 'B';
  target?: Target;
  zone?: boolean;
}

export interface BaseLog {
  files: Map<string, Line[] | string>;
  kernel: DemoKey;
  /** A second key a user also pins (another kernel of the same operator). */
  otherPinned: DemoKey;
  /** A key nobody pinned: the attacker's. */
  attacker: DemoKey;
  /** Keys to pin (kernel and other). */
  trustKeys: string[];
}

const parse = (text: string): JsonObject => {
  const r = parseJson(text);
  if (!r.ok || !isJsonObject(r.value)) throw new Error(`adversary: cannot parse ${text.slice(0, 80)}`);
  return r.value;
};

/** Builds the base log: a real demo store of `count` receipts, exported as the server exports it. */
export async function buildBaseLog(seed = 'adversary-1', count = 30): Promise<BaseLog> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'ra-adv-'));
  try {
    const { storePath } = await generateDemoStore({ count, checkpointEvery: 4, out: path.join(tmp, 'store'), seed });
    const pkg = path.join(tmp, 'pkg');
    await exportDemoPackage(storePath, pkg);
    const files = new Map<string, Line[] | string>();
    for (const name of readdirSync(pkg).sort()) {
      const text = readFileSync(path.join(pkg, name), 'utf8');
      files.set(
        name,
        name.endsWith('.ndjson')
          ? text
              .split('\n')
              .filter((l) => l !== '')
              .map((t) => ({ text: t }))
          : text,
      );
    }
    const cps = (files.get(CHECKPOINTS) as Line[]).map((l) => {
      const body = parse(l.text).get('body') as JsonObject;
      const seq = Number((body.get('checkpoint_seq') as JsonNumber).raw);
      Object.assign(l, { kind: 'checkpoint', seq });
      return { seq, start: Number((body.get('batch_start_seq') as JsonNumber).raw), end: Number((body.get('batch_end_seq') as JsonNumber).raw) };
    });
    for (const [file, kind] of [
      [RECEIPTS, 'tool'],
      [CHILDREN, 'child'],
    ] as const) {
      for (const l of files.get(file) as Line[]) {
        const v = parse(l.text);
        const seq = Number((v.get('seq') as JsonNumber).raw);
        const receipt = v.get('receipt') as JsonObject;
        l.kind = kind;
        l.seq = seq;
        if (kind === 'tool') {
          l.generation = receipt.has('receipt_kind') ? 'B' : 'A';
          l.checkpointSeq = cps.find((c) => seq >= c.start && seq <= c.end)?.seq;
        }
      }
    }
    const kernel = demoKernelKey(seed);
    const otherPinned = demoKey(seed, 'second-kernel');
    return { files, kernel, otherPinned, attacker: demoKey(seed, 'attacker'), trustKeys: [kernel.publicHex, otherPinned.publicHex] };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers over receipts

/** The receipt object inside a receipt line (wrapper `{"seq","receipt"}`). */
const receiptOf = (l: Line): JsonObject => parse(l.text).get('receipt') as JsonObject;
const withReceipt = (l: Line, receipt: JsonObject, seq = l.seq!): string =>
  compactJson(
    new Map<string, JsonValue>([
      ['seq', new JsonNumber(String(seq))],
      ['receipt', receipt],
    ]),
  );

/** Signs `receipt` (modified in place) with `key` as its kernel: Gen B ids are recomputed first. */
export function resign(receipt: JsonObject, kind: 'tool' | 'child', key: DemoKey, opts: { legacyC1?: boolean } = {}): void {
  receipt.set('kernel_key', key.publicHex);
  receipt.delete('signature');
  receipt.set('signature', '00'.repeat(64));
  if (kind === 'child') {
    const d = decodeChildReceipt(receipt);
    if (!d.ok) throw new Error(`adversary: child receipt does not decode: ${JSON.stringify(d)}`);
    receipt.set('signature', key.sign(canonicalBytes(d.value.signingBody)));
    return;
  }
  let d = decodeToolReceipt(receipt);
  if (!d.ok) throw new Error(`adversary: tool receipt does not decode: ${JSON.stringify(d)}`);
  if (d.value.genB) {
    receipt.set('id', sha256Hex(canonicalBytes(d.value.genB.idInput)));
    d = decodeToolReceipt(receipt);
    if (!d.ok) throw new Error('adversary: re-identified receipt does not decode');
  }
  receipt.set('signature', key.sign(canonicalBytes(d.value.signingBody, opts)));
}

/** A tool name other than the receipt's own (a change must change something). */
const otherTool = (r: JsonObject): string => (r.get('tool_name') === 'file_delete' ? 'file_read' : 'file_delete');

/** Whether the receipt on line `l` still has the shape of its type (the decoder the verifier runs first). */
function decodes(l: Line): boolean {
  const r = receiptOf(l);
  return (l.kind === 'child' ? decodeChildReceipt(r) : decodeToolReceipt(r)).ok;
}

interface LeafPath {
  path: (string | number)[];
  value: JsonValue;
}

/** Every scalar leaf under `v` (objects and arrays walked), with its path. */
function leaves(v: JsonValue, prefix: (string | number)[] = []): LeafPath[] {
  if (isJsonObject(v)) return [...v].flatMap(([k, x]) => leaves(x, [...prefix, k]));
  if (isJsonArray(v)) return v.flatMap((x, i) => leaves(x, [...prefix, i]));
  return [{ path: prefix, value: v }];
}

function setAt(root: JsonValue, p: (string | number)[], value: JsonValue): void {
  let node = root;
  for (const k of p.slice(0, -1)) node = typeof k === 'number' ? (node as JsonValue[])[k]! : (node as JsonObject).get(k)!;
  const last = p[p.length - 1]!;
  if (typeof last === 'number') (node as JsonValue[])[last] = value;
  else (node as JsonObject).set(last, value);
}

/** Values a field may take instead (so a change keeps the receipt well-formed). */
const ENUMS: string[][] = [
  ['allow', 'deny', 'cancelled', 'incomplete'],
  ['settled', 'pending', 'failed', 'not_applicable'],
  ['USD', 'EUR', 'GBP'],
  ['mediated', 'verified', 'advisory'],
  ['completed', 'cancelled', 'incomplete', 'failed'],
];

/** A different value of the same type: one hex digit, one character, one unit, or another enum member. */
function changedValue(v: JsonValue, rng: Prng): JsonValue | undefined {
  if (typeof v === 'boolean') return !v;
  if (isJsonNumber(v)) {
    if (!v.isIntegerLiteral) return new JsonNumber(String(v.toNumber() + 1));
    const n = BigInt(v.raw);
    return new JsonNumber(String(n > 0n && rng.chance(0.5) ? n - 1n : n + 1n));
  }
  if (typeof v === 'string') {
    const members = ENUMS.find((e) => e.includes(v));
    if (members) return rng.pick(members.filter((m) => m !== v));
    if (v.length === 0) return 'x';
    const i = rng.int(0, v.length - 1);
    const hex = /^(0x)?[0-9a-f]+$/.test(v);
    const alphabet = hex ? '0123456789abcdef' : 'abcdefghijklmnopqrstuvwxyz0123456789';
    const options = [...alphabet].filter((c) => c !== v[i]);
    return v.slice(0, i) + rng.pick(options) + v.slice(i + 1);
  }
  return undefined;
}

/** The codes a change to the signed content of receipt line `l` must raise. */
function signedChangeCodes(l: Line, opts: { parameters?: boolean } = {}): ProblemCode[] {
  const codes: ProblemCode[] = ['signature_invalid'];
  if (l.generation === 'B') codes.push('receipt_id_mismatch');
  if (opts.parameters) codes.push('parameter_hash_mismatch');
  if (l.checkpointSeq !== undefined) codes.push('inclusion_failed');
  return codes;
}

const flipHexBit = (hex: string, bit: number): string => {
  const bytes = fromHex(hex)!;
  bytes[bit >> 3]! ^= 1 << (bit & 7);
  return toHex(bytes);
};

/** S + L: the same signature for a verifier that reduces S, rejected by the strict rule (S < L). */
function malleate(sigHex: string): string {
  const bytes = fromHex(sigHex)!;
  let s = 0n;
  for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(bytes[i]!);
  s += L;
  for (let i = 32; i < 64; i++) {
    bytes[i] = Number(s & 0xffn);
    s >>= 8n;
  }
  return toHex(bytes);
}

// ---------------------------------------------------------------------------------------------
// The variant builder

class Draft {
  files: Map<string, Line[] | string>;
  targets = new Map<string, Target>();
  codes: ProblemCode[] = [];
  ok?: boolean;
  harmless?: boolean;
  fixManifest = true;

  constructor(
    readonly base: BaseLog,
    readonly cls: TamperClass,
    readonly name: string,
  ) {
    this.files = new Map([...base.files].map(([k, v]) => [k, typeof v === 'string' ? v : v.map((l) => ({ ...l, target: undefined, zone: undefined }))]));
  }

  lines(file: string): Line[] {
    return this.files.get(file) as Line[];
  }

  /** Receipt and checkpoint lines of the log. */
  records(kinds: Kind[] = ['tool', 'child', 'checkpoint']): Line[] {
    return [RECEIPTS, CHILDREN, CHECKPOINTS].flatMap((f) => this.lines(f)).filter((l) => kinds.includes(l.kind!));
  }

  /**
   * Replaces `old` with `next` in its file (a new object, so expectations stick to it). A changed
   * receipt that no longer has the shape of its type is rejected whole: `parse_error`, no verdict.
   */
  replace(old: Line, next: Partial<Line>): Line {
    const line = { ...old, ...next };
    if (next.text !== undefined && line.target?.verdict === 'failed' && (line.kind === 'tool' || line.kind === 'child') && !decodes(line)) {
      line.target = { verdict: 'absent', codes: ['parse_error'] };
    }
    for (const lines of this.files.values()) {
      if (typeof lines === 'string') continue;
      const i = lines.indexOf(old);
      if (i >= 0) return (lines[i] = line);
    }
    throw new Error('adversary: line not in the log');
  }

  /** Marks every untampered receipt of checkpoint `seq`'s batch as allowed to be unverified. */
  zoneBatch(cpSeq: number | undefined): void {
    if (cpSeq === undefined) return;
    for (const l of this.lines(RECEIPTS)) if (l.checkpointSeq === cpSeq && !l.target) l.zone = true;
  }

  zoneCheckpoint(cpSeq: number): void {
    for (const l of this.lines(CHECKPOINTS)) if (l.seq === cpSeq && !l.target) l.zone = true;
  }

  /**
   * Checkpoint `cpSeq` no longer verifies: its batch loses its voucher, and its successor's link
   * to it cannot be checked, so the successor may fail `continuity` and its batch go unverified.
   */
  zoneAfterCheckpoint(cpSeq: number): void {
    this.zoneBatch(cpSeq);
    this.zoneBatch(cpSeq + 1);
    this.zoneCheckpoint(cpSeq + 1);
  }

  /** Every checkpoint and every tool receipt, the tail included, may be touched (a tamper that moves a checkpoint's seq or batch). */
  zoneAll(): void {
    for (const l of this.records(['tool', 'checkpoint'])) if (!l.target) l.zone = true;
  }

  build(): Variant {
    const files: Record<string, string> = {};
    const targets = new Map<string, Target>();
    const zone = new Set<string>();
    for (const [name, content] of this.files) {
      if (typeof content === 'string') {
        files[name] = content;
        continue;
      }
      files[name] = content.map((l) => l.text + '\n').join('');
      content.forEach((l, i) => {
        const loc = `${name}:${i + 1}`;
        if (l.target) targets.set(loc, l.target);
        if (l.zone) zone.add(loc);
      });
    }
    if (this.fixManifest) files[MANIFEST] = attackerManifest(files);
    return {
      cls: this.cls,
      name: this.name,
      files,
      targets,
      zone,
      codes: this.codes,
      ...(this.ok !== undefined ? { ok: this.ok } : {}),
      ...(this.harmless ? { harmless: true } : {}),
    };
  }
}

/** manifest.json recomputed by someone who changed the files: hashes, sizes and counts. */
function attackerManifest(files: Record<string, string>): string {
  const m = parse(files[MANIFEST]!);
  const enc = new TextEncoder();
  for (const entry of m.get('files') as JsonObject[]) {
    const name = entry.get('path') as string;
    const bytes = enc.encode(files[name] ?? '');
    entry.set('sha256', sha256Hex(bytes));
    entry.set('bytes', new JsonNumber(String(bytes.length)));
  }
  const records = (file: string) => (files[file] ?? '').split('\n').filter((l) => l !== '');
  const counts = m.get('counts') as JsonObject | undefined;
  if (counts) {
    for (const [key, file] of Object.entries(COUNTED)) if (counts.has(key)) counts.set(key, new JsonNumber(String(records(file).length)));
    // Tool receipts without an inclusion proof.
    // (By pattern: a tampered line need not parse.)
    const proven = new Set(records(PROOFS).map((t) => /"receipt_seq":(\d+)/.exec(t)?.[1]));
    const unproven = records(RECEIPTS).filter((t) => !proven.has(/^\{"seq":(\d+)/.exec(t)?.[1])).length;
    if (counts.has('uncheckpointedReceipts')) counts.set('uncheckpointedReceipts', new JsonNumber(String(unproven)));
    const coverage = m.get('proofCoverage') as JsonObject | undefined;
    if (coverage?.has('uncheckpointedReceipts')) coverage.set('uncheckpointedReceipts', new JsonNumber(String(unproven)));
  }
  return JSON.stringify(JSON.parse(compactJson(m)), null, 2);
}

// ---------------------------------------------------------------------------------------------
// Tamper classes. Each returns variants; `n` is how many seeded draws a class makes where it draws.

type Maker = (base: BaseLog, rng: Prng, n: number) => Variant[];

const receiptLines = (d: Draft, kinds: Kind[] = ['tool', 'child']) => d.records(kinds);

const signedField: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const probe = new Draft(base, 'signed-field', '');
  const all = receiptLines(probe).flatMap((l) =>
    leaves(receiptOf(l))
      .filter((p) => p.path[0] !== 'signature')
      .map((p) => ({ l, p })),
  );
  // Every field position of every receipt once, then seeded repeats up to n.
  const picks = [...all];
  while (picks.length < n) picks.push(rng.pick(all));
  for (const { l: probeLine, p } of picks) {
    const next = changedValue(p.value, rng);
    if (next === undefined) continue;
    const d = new Draft(
      base,
      'signed-field',
      `${probeLine.kind} seq ${probeLine.seq}: $.${p.path.join('.')} ${JSON.stringify(compactJson(new Map([['v', p.value]])))} → ${compactJson(new Map([['v', next]]))}`,
    );
    const l = d.records([probeLine.kind!]).find((x) => x.seq === probeLine.seq)!;
    const r = receiptOf(l);
    setAt(r, p.path, next);
    const inParams = p.path[0] === 'action';
    const target: Target = { verdict: 'failed', codes: signedChangeCodes(l, { parameters: inParams }) };
    d.replace(l, { text: withReceipt(l, r), target });
    out.push(d.build());
  }
  return out;
};

/** Re-signs checkpoint line `l`'s body (after `edit`) with `key`. */
function checkpointText(l: Line, key: DemoKey | null, edit: (body: JsonObject) => void): string {
  const v = parse(l.text);
  const body = v.get('body') as JsonObject;
  edit(body);
  if (key) v.set('signature', key.sign(canonicalBytes(body)));
  return compactJson(v);
}

const checkpointField: Maker = (base, rng) => {
  const out: Variant[] = [];
  const probe = new Draft(base, 'checkpoint-field', '');
  for (const cpLine of probe.records(['checkpoint'])) {
    for (const p of leaves(parse(cpLine.text).get('body')!)) {
      const next = changedValue(p.value, rng);
      if (next === undefined) continue;
      const d = new Draft(base, 'checkpoint-field', `checkpoint ${cpLine.seq}: body.${p.path.join('.')} changed`);
      const l = d.records(['checkpoint']).find((x) => x.seq === cpLine.seq)!;
      d.replace(l, { text: checkpointText(l, null, (b) => setAt(b, p.path, next)), target: { verdict: 'failed', codes: ['checkpoint_signature_invalid'] } });
      // Its batch loses its voucher; the next checkpoint's chain now points at a body not in the log.
      d.zoneAfterCheckpoint(cpLine.seq!);
      // A changed seq or batch range can collide with another checkpoint or leave receipts uncovered.
      if (p.path[0] !== 'merkle_root' && p.path[0] !== 'issued_at' && p.path[0] !== 'schema') d.zoneAll();
      out.push(d.build());
    }
  }
  return out;
};

const signatureBit: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const all = new Draft(base, 'signature-bit', '').records();
  for (let i = 0; i < n; i++) {
    const probe = all[i % all.length]!;
    const bit = rng.int(0, 511);
    const d = new Draft(base, 'signature-bit', `${probe.kind} seq ${probe.seq}: signature bit ${bit} flipped`);
    const l = d.records([probe.kind!]).find((x) => x.seq === probe.seq)!;
    if (l.kind === 'checkpoint') {
      const v = parse(l.text);
      v.set('signature', flipHexBit(v.get('signature') as string, bit));
      d.replace(l, { text: compactJson(v), target: { verdict: 'failed', codes: ['checkpoint_signature_invalid'] } });
      d.zoneAfterCheckpoint(l.seq!);
    } else {
      const r = receiptOf(l);
      r.set('signature', flipHexBit(r.get('signature') as string, bit));
      // The leaf covers the whole receipt, signature included, so a checkpointed one also loses inclusion.
      d.replace(l, {
        text: withReceipt(l, r),
        target: { verdict: 'failed', codes: l.checkpointSeq !== undefined ? ['signature_invalid', 'inclusion_failed'] : ['signature_invalid'] },
      });
    }
    out.push(d.build());
  }
  return out;
};

const malleable: Maker = (base) =>
  new Draft(base, 'malleable-signature', '').records().map((probe) => {
    const d = new Draft(base, 'malleable-signature', `${probe.kind} seq ${probe.seq}: S replaced by S + L`);
    const l = d.records([probe.kind!]).find((x) => x.seq === probe.seq)!;
    if (l.kind === 'checkpoint') {
      const v = parse(l.text);
      v.set('signature', malleate(v.get('signature') as string));
      d.replace(l, { text: compactJson(v), target: { verdict: 'failed', codes: ['checkpoint_signature_invalid'] } });
      d.zoneAfterCheckpoint(l.seq!);
    } else {
      const r = receiptOf(l);
      r.set('signature', malleate(r.get('signature') as string));
      d.replace(l, {
        text: withReceipt(l, r),
        target: { verdict: 'failed', codes: l.checkpointSeq !== undefined ? ['signature_invalid', 'inclusion_failed'] : ['signature_invalid'] },
      });
    }
    return d.build();
  });

const keySwap: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const all = new Draft(base, 'key-swap', '').records();
  for (let i = 0; i < n; i++) {
    const probe = all[i % all.length]!;
    const which = rng.pick(['pinned', 'attacker'] as const);
    const key = which === 'pinned' ? base.otherPinned : base.attacker;
    const d = new Draft(base, 'key-swap', `${probe.kind} seq ${probe.seq}: kernel_key swapped for the ${which} key`);
    const l = d.records([probe.kind!]).find((x) => x.seq === probe.seq)!;
    if (l.kind === 'checkpoint') {
      const codes: ProblemCode[] = ['checkpoint_signature_invalid', ...(which === 'attacker' ? (['untrusted_signer'] as const) : [])];
      d.replace(l, { text: checkpointText(l, null, (b) => b.set('kernel_key', key.publicHex)), target: { verdict: 'failed', codes } });
      d.zoneAfterCheckpoint(l.seq!);
    } else {
      const r = receiptOf(l);
      r.set('kernel_key', key.publicHex);
      const codes = signedChangeCodes(l);
      if (which === 'attacker') codes.push('untrusted_signer');
      d.replace(l, { text: withReceipt(l, r), target: { verdict: 'failed', codes } });
    }
    out.push(d.build());
  }
  return out;
};

const unpinnedResign: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const all = new Draft(base, 'unpinned-resign', '').records();
  for (let i = 0; i < n; i++) {
    const probe = all[i % all.length]!;
    const d = new Draft(base, 'unpinned-resign', `${probe.kind} seq ${probe.seq}: changed and re-signed by an unpinned key`);
    const l = d.records([probe.kind!]).find((x) => x.seq === probe.seq)!;
    if (l.kind === 'checkpoint') {
      d.replace(l, {
        text: checkpointText(l, base.attacker, (b) => b.set('kernel_key', base.attacker.publicHex)),
        target: { verdict: 'failed', codes: ['untrusted_signer'] },
      });
      d.zoneAfterCheckpoint(l.seq!);
    } else {
      const r = receiptOf(l);
      if (l.kind === 'tool') r.set('tool_name', rng.pick(['transfer_funds', 'shell_exec', 'file_delete']));
      else r.set('session_id', changedValue(r.get('session_id')!, rng)!);
      resign(r, l.kind as 'tool' | 'child', base.attacker);
      const codes: ProblemCode[] = ['untrusted_signer'];
      if (l.checkpointSeq !== undefined) codes.push('inclusion_failed');
      d.replace(l, { text: withReceipt(l, r), target: { verdict: 'failed', codes } });
    }
    out.push(d.build());
  }
  return out;
};

/** Removes line `l`; proofs that named it now point at nothing. */
const deletion: Maker = (base) => {
  const out: Variant[] = [];
  for (const probe of new Draft(base, 'delete', '').records()) {
    const d = new Draft(base, 'delete', `${probe.kind} seq ${probe.seq} deleted`);
    const file = probe.kind === 'tool' ? RECEIPTS : probe.kind === 'child' ? CHILDREN : CHECKPOINTS;
    const lines = d.lines(file);
    const i = lines.findIndex((x) => x.seq === probe.seq);
    lines.splice(i, 1);
    if (probe.kind === 'tool' && probe.checkpointSeq !== undefined) d.codes.push('missing_receipt');
    if (probe.kind === 'checkpoint') {
      // The batch has no signed checkpoint now. The next one names a predecessor the log does not
      // hold: its continuity (and chain) cannot be checked, a warning (contract part 2 §5.1 (a)).
      d.zoneAfterCheckpoint(probe.seq!);
      if (probe.seq! < d.lines(CHECKPOINTS).length + 1) d.codes.push('checkpoint_prefix_incomplete');
    }
    // Deleting from the uncheckpointed tail or a child receipt is invisible once the manifest is
    // recomputed: nothing signed vouches for them (SECURITY.md says so). Nothing may fail either.
    if (probe.kind === 'child' || (probe.kind === 'tool' && probe.checkpointSeq === undefined)) d.ok = true;
    out.push(d.build());
  }
  // A withheld prefix: checkpoints 1…k gone, as a server that serves only its newest ones. What is
  // left names a predecessor the log does not hold: a warning, and the receipts left without a
  // checkpoint are not verified (contract part 2 §5.1).
  const cps = new Draft(base, 'delete', '').records(['checkpoint']);
  for (let k = 1; k < cps.length; k++) {
    const d = new Draft(base, 'delete', `checkpoints 1–${k} withheld`);
    const lines = d.lines(CHECKPOINTS);
    for (let seq = 1; seq <= k; seq++) {
      lines.splice(
        lines.findIndex((x) => x.seq === seq),
        1,
      );
      d.zoneBatch(seq);
    }
    d.codes.push('checkpoint_prefix_incomplete');
    out.push(d.build());
  }
  return out;
};

const insertion: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const tools = new Draft(base, 'insert', '').records(['tool']);
  const lastSeq = Math.max(...tools.map((l) => l.seq!));
  for (let i = 0; i < n; i++) {
    const mode = rng.pick(['forged-tail', 'replayed-tail', 'forged-batch'] as const);
    const src = rng.pick(tools);
    const d = new Draft(base, 'insert', `${mode}: a receipt inserted (copy of seq ${src.seq})`);
    const lines = d.lines(RECEIPTS);
    const r = receiptOf(src);
    if (mode === 'forged-tail' || mode === 'forged-batch') {
      r.set('tool_name', 'transfer_funds');
      resign(r, 'tool', base.attacker);
    }
    // A copy that keeps its source's id (a replay, a forged Gen A copy; a Gen B id is recomputed
    // from the changed content) is a second receipt under that id: duplicate_receipt_id (issue 20).
    const dup: ProblemCode[] = r.get('id') === receiptOf(src).get('id') ? ['duplicate_receipt_id'] : [];
    if (mode === 'forged-batch') {
      // Given the seq of a checkpointed receipt, which it pushes out of place: both are suspect.
      const victim = rng.pick(tools.filter((t) => t.checkpointSeq !== undefined));
      const at = lines.findIndex((x) => x.seq === victim.seq);
      lines.splice(at, 0, {
        text: withReceipt(src, r, victim.seq),
        kind: 'tool',
        seq: victim.seq,
        checkpointSeq: victim.checkpointSeq,
        target: { verdict: 'failed', codes: ['untrusted_signer', 'inclusion_failed', ...dup] },
      });
      lines[at + 1] = { ...lines[at + 1]!, target: { verdict: 'failed', codes: ['inclusion_failed'] } };
    } else {
      const seq = lastSeq + 1 + i;
      const codes: ProblemCode[] = mode === 'forged-tail' ? ['untrusted_signer', ...dup] : ['inclusion_failed', ...dup];
      lines.push({ text: withReceipt(src, r, seq), kind: 'tool', seq, target: { verdict: 'failed', codes } });
      // A replay of a receipt that is itself unproven: nothing tells the two apart, both fail.
      if (mode === 'replayed-tail' && src.checkpointSeq === undefined)
        d.replace(lines.find((x) => x.seq === src.seq)!, { target: { verdict: 'failed', codes: ['inclusion_failed'] } });
    }
    out.push(d.build());
  }
  return out;
};

const substitution: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const tools = new Draft(base, 'substitute', '').records(['tool']);
  for (let i = 0; i < n; i++) {
    const victim = rng.pick(tools);
    const donor = rng.pick(tools.filter((t) => t.seq !== victim.seq));
    const d = new Draft(base, 'substitute', `seq ${victim.seq} replaced by a genuine copy of seq ${donor.seq}`);
    const l = d.lines(RECEIPTS).find((x) => x.seq === victim.seq)!;
    // In a checkpointed place its proof fails; in the tail it is a second copy of a receipt already
    // in the log. The original stays where it was, and stays verified.
    d.replace(l, { text: withReceipt(l, receiptOf(donor)), target: { verdict: 'failed', codes: ['inclusion_failed', 'duplicate_receipt_id'] } });
    if (donor.checkpointSeq === undefined)
      d.replace(d.lines(RECEIPTS).find((x) => x.seq === donor.seq)!, { target: { verdict: 'failed', codes: ['inclusion_failed'] } });
    out.push(d.build());
  }
  return out;
};

const reorder: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const tools = new Draft(base, 'reorder', '').records(['tool']);
  for (let i = 0; i < n; i++) {
    const [a, b] = [rng.pick(tools), rng.pick(tools)];
    if (a.seq === b.seq) continue;
    if (i % 2 === 0) {
      // Lines moved, each keeping its seq: the same log.
      const d = new Draft(base, 'reorder', `lines of seq ${a.seq} and ${b.seq} swapped, seqs kept`);
      const lines = d.lines(RECEIPTS);
      const [ia, ib] = [lines.findIndex((x) => x.seq === a.seq), lines.findIndex((x) => x.seq === b.seq)];
      [lines[ia], lines[ib]] = [lines[ib]!, lines[ia]!];
      d.harmless = true;
      d.ok = true;
      out.push(d.build());
    } else {
      // The receipts trade places in the log (their seqs): each now claims the other's leaf.
      // Only checkpoints fix a receipt's place: two tail receipts, or one moved into the tail, carry
      // genuine content in a place nothing vouches for (SECURITY.md: what `verified` means there).
      if (a.checkpointSeq === undefined || b.checkpointSeq === undefined) continue;
      const d = new Draft(base, 'reorder', `seq ${a.seq} and seq ${b.seq} trade places`);
      const la = d.lines(RECEIPTS).find((x) => x.seq === a.seq)!;
      const lb = d.lines(RECEIPTS).find((x) => x.seq === b.seq)!;
      const ra = receiptOf(la);
      const rb = receiptOf(lb);
      d.replace(la, { text: withReceipt(la, rb), target: { verdict: 'failed', codes: ['inclusion_failed'] } });
      d.replace(lb, { text: withReceipt(lb, ra), target: { verdict: 'failed', codes: ['inclusion_failed'] } });
      out.push(d.build());
    }
  }
  return out;
};

/** A second kernel-signed checkpoint for the same seq (or the same batch) with another root: equivocation. */
const fork: Maker = (base, rng) => {
  const out: Variant[] = [];
  for (const probe of new Draft(base, 'fork', '').records(['checkpoint'])) {
    for (const mode of ['same-seq', 'same-batch'] as const) {
      const d = new Draft(base, 'fork', `checkpoint ${probe.seq} forked (${mode})`);
      const lines = d.lines(CHECKPOINTS);
      const l = lines.find((x) => x.seq === probe.seq)!;
      const forged = checkpointText(l, base.kernel, (b) => {
        b.set('merkle_root', '0x' + rng.hex(64));
        if (mode === 'same-batch') b.set('checkpoint_seq', new JsonNumber(String(lines.length + 1)));
      });
      // The problem is raised at the second statement; both fail.
      d.replace(l, { target: { verdict: 'failed', codes: [] } });
      lines.push({
        text: forged,
        kind: 'checkpoint',
        seq: mode === 'same-seq' ? probe.seq : lines.length + 1,
        target: { verdict: 'failed', codes: ['checkpoint_equivocation'] },
      });
      d.zoneAfterCheckpoint(probe.seq!);
      d.codes.push('checkpoint_equivocation');
      out.push(d.build());
    }
  }
  return out;
};

/** The chain goes back: a kernel-signed checkpoint after the last one with an earlier seq. */
const rollback: Maker = (base) => {
  const out: Variant[] = [];
  const cps = new Draft(base, 'rollback', '').records(['checkpoint']);
  const last = cps[cps.length - 1]!;
  for (const earlier of cps.slice(0, -1)) {
    const d = new Draft(base, 'rollback', `a checkpoint after ${last.seq} claims seq ${earlier.seq}`);
    const lines = d.lines(CHECKPOINTS);
    const lastBody = parse(last.text).get('body') as JsonObject;
    const end = Number((lastBody.get('batch_end_seq') as JsonNumber).raw);
    const text = checkpointText(last, base.kernel, (b) => {
      b.set('checkpoint_seq', new JsonNumber(String(earlier.seq)));
      b.set('batch_start_seq', new JsonNumber(String(end + 1)));
      b.set('batch_end_seq', new JsonNumber(String(end + 1)));
      b.set('tree_size', new JsonNumber('1'));
      b.set('previous_checkpoint_sha256', sha256Hex(canonicalBytes(lastBody)));
    });
    lines.push({ text, kind: 'checkpoint', seq: earlier.seq, target: { verdict: 'failed', codes: [] } });
    // Two signed statements for one seq: both fail (the problem is raised at the second).
    d.replace(lines.find((x) => x.seq === earlier.seq)!, { target: { verdict: 'failed', codes: [] } });
    d.zoneAfterCheckpoint(earlier.seq!);
    for (const r of d.lines(RECEIPTS)) if (r.checkpointSeq === undefined && r.kind === 'tool') r.zone = true;
    d.codes.push('checkpoint_equivocation');
    out.push(d.build());
  }
  return out;
};

const chainBroken: Maker = (base, rng) => {
  const out: Variant[] = [];
  for (const probe of new Draft(base, 'chain-broken', '').records(['checkpoint']).slice(1)) {
    for (const mode of ['previous-hash', 'seq-gap', 'batch-gap'] as const) {
      const d = new Draft(base, 'chain-broken', `checkpoint ${probe.seq}: ${mode}`);
      const l = d.lines(CHECKPOINTS).find((x) => x.seq === probe.seq)!;
      d.replace(l, {
        text: checkpointText(l, base.kernel, (b) => {
          if (mode === 'previous-hash') b.set('previous_checkpoint_sha256', rng.hex(64));
          if (mode === 'seq-gap') b.set('checkpoint_seq', new JsonNumber(String(probe.seq! + 100)));
          if (mode === 'batch-gap') {
            const start = BigInt((b.get('batch_start_seq') as JsonNumber).raw) + 1n;
            b.set('batch_start_seq', new JsonNumber(String(start)));
            b.set('tree_size', new JsonNumber(String(BigInt((b.get('batch_end_seq') as JsonNumber).raw) - start + 1n)));
          }
        }),
        target: { verdict: 'failed', codes: ['checkpoint_continuity_broken'] },
      });
      d.zoneAfterCheckpoint(probe.seq!);
      if (mode === 'batch-gap') for (const r of d.lines(RECEIPTS)) if (r.checkpointSeq === probe.seq) r.zone = true;
      out.push(d.build());
    }
  }
  return out;
};

const treeSize: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const cps = new Draft(base, 'tree-size', '').records(['checkpoint']);
  const modes = ['tree_size', 'tree_size', 'end before start', 'start 0', 'seq 0'] as const;
  for (let i = 0; i < Math.max(n, cps.length); i++) {
    const probe = cps[i % cps.length]!;
    const mode = i < cps.length ? 'tree_size' : rng.pick(modes);
    const delta = rng.pick([-1n, 1n, 2n, 2n ** 53n]);
    const d = new Draft(
      base,
      'tree-size',
      `checkpoint ${probe.seq}: ${mode === 'tree_size' ? `tree_size ${delta > 0 ? '+' : ''}${delta}` : mode}, re-signed by the kernel`,
    );
    const l = d.lines(CHECKPOINTS).find((x) => x.seq === probe.seq)!;
    const int = (b: JsonObject, k: string) => BigInt((b.get(k) as JsonNumber).raw);
    const set = (b: JsonObject, k: string, v: bigint) => b.set(k, new JsonNumber(String(v)));
    d.replace(l, {
      text: checkpointText(l, base.kernel, (b) => {
        if (mode === 'tree_size') set(b, 'tree_size', int(b, 'tree_size') + delta);
        if (mode === 'end before start') set(b, 'batch_end_seq', int(b, 'batch_start_seq') - 1n);
        if (mode === 'start 0') set(b, 'batch_start_seq', 0n);
        if (mode === 'seq 0') set(b, 'checkpoint_seq', 0n);
      }),
      target: { verdict: 'failed', codes: ['checkpoint_structure_invalid'] },
    });
    d.zoneAfterCheckpoint(probe.seq!);
    if (mode !== 'tree_size') d.zoneAll();
    out.push(d.build());
  }
  // A proof's tree_size changed (proofs are not signed): only that receipt's inclusion fails.
  const proofs = new Draft(base, 'tree-size', '').lines(PROOFS);
  for (let i = 0; i < proofs.length; i += 3) {
    const d = new Draft(base, 'tree-size', `inclusion proof ${i + 1}: tree_size + 1`);
    const pl = d.lines(PROOFS)[i]!;
    const v = parse(pl.text);
    const inner = v.get('proof') as JsonObject;
    inner.set('tree_size', new JsonNumber(String(Number((inner.get('tree_size') as JsonNumber).raw) + 1)));
    d.lines(PROOFS)[i] = { text: compactJson(v) };
    const seq = Number((v.get('receipt_seq') as JsonNumber).raw);
    const rl = d.lines(RECEIPTS).find((x) => x.seq === seq)!;
    d.replace(rl, { target: { verdict: 'failed', codes: ['inclusion_failed'] } });
    out.push(d.build());
  }
  return out;
};

/** Repeats a key of some object of a record (at any depth) with another value. */
const duplicateKey: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const all = new Draft(base, 'duplicate-key', '').records();
  for (let i = 0; i < n; i++) {
    const probe = all[i % all.length]!;
    const d = new Draft(base, 'duplicate-key', '');
    const l = d.records([probe.kind!]).find((x) => x.seq === probe.seq)!;
    // A `"key":` occurrence in the text, at any depth; the duplicate goes right before it.
    const keys = [...l.text.matchAll(/[{,]"([a-z_]+)":/g)];
    const m = rng.pick(keys);
    const at = m.index! + 1;
    const shadow = rng.chance(0.5) ? `"${m[1]}":"shadow",` : `"${m[1]}":null,`;
    const text = l.text.slice(0, at) + shadow + l.text.slice(at);
    d.replace(l, { text, target: { verdict: 'absent', codes: ['duplicate_key'] } });
    const named = Object.assign(d, { name: `${probe.kind} seq ${probe.seq}: key "${m[1]}" repeated` });
    if (l.kind === 'checkpoint') {
      named.zoneAfterCheckpoint(l.seq!);
    } else if (l.kind === 'tool' && l.checkpointSeq !== undefined) named.codes.push('missing_receipt');
    out.push(named.build());
  }
  return out;
};

/** A u64 beyond 2^53 in the signed parameters, and the same with its last digit changed. */
const bigNumber: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const tail = new Draft(base, 'big-number', '').records(['tool']).filter((l) => l.checkpointSeq === undefined);
  for (let i = 0; i < n; i++) {
    const probe = tail[i % tail.length]!;
    // 2^53 + k: above the last integer a double holds exactly.
    const big = 2n ** 53n + BigInt(rng.int(1, 1_000_000)) * 2n + 1n;
    const tampered = big + (rng.chance(0.5) ? 1n : -1n);
    for (const tamper of [false, true]) {
      const d = new Draft(base, 'big-number', `tail seq ${probe.seq}: parameters.amount_wei ${big}${tamper ? ` → ${tampered}` : ' (control, kernel-signed)'}`);
      const l = d.lines(RECEIPTS).find((x) => x.seq === probe.seq)!;
      const r = receiptOf(l);
      const action = r.get('action') as JsonObject;
      const params = action.get('parameters') as JsonObject;
      params.set('amount_wei', new JsonNumber(String(big)));
      action.set('parameter_hash', sha256Hex(canonicalBytes(params)));
      resign(r, 'tool', base.kernel);
      if (tamper) {
        params.set('amount_wei', new JsonNumber(String(tampered)));
        d.replace(l, {
          text: withReceipt(l, r),
          target: {
            verdict: 'failed',
            codes: ['signature_invalid', 'parameter_hash_mismatch', ...(l.generation === 'B' ? (['receipt_id_mismatch'] as const) : [])],
          },
        });
      } else {
        d.replace(l, { text: withReceipt(l, r) });
        d.harmless = true;
      }
      out.push(d.build());
    }
  }
  return out;
};

/** Unicode: the same text written another way (must still verify) and text that only looks the same (must not). */
const unicode: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const tail = new Draft(base, 'unicode', '').records(['tool']).filter((l) => l.checkpointSeq === undefined);
  const keys = ['ключ', 'e\u0301', 'é', '😀', '\u00e9\u0000', 'a\u202eb', '\u2028', 'z', 'Z', 'ﬀ', '\ufeff', '\u{10ffff}'];
  const pairs: [string, string][] = [
    ['é', 'e\u0301'], // NFC vs NFD
    ['paypal', 'pаypal'], // Cyrillic а
    ['admin', 'admin\u200b'], // zero-width space
    ['file.txt', 'file\u202etxt.exe'], // RLO
    ['😀', '😁'],
    ['A', 'Ａ'], // fullwidth
    ['ß', 'ss'],
    ['\u0000', '\u0001'],
    ['\u007f', '\u0080'],
  ];
  for (let i = 0; i < n; i++) {
    const probe = tail[i % tail.length]!;
    const key = rng.pick(keys);
    const [honest, lookalike] = rng.pick(pairs);
    for (const mode of ['escaped', 'lookalike', 'key'] as const) {
      const d = new Draft(base, 'unicode', `tail seq ${probe.seq}: parameters[${JSON.stringify(key)}] = ${JSON.stringify(honest)}; ${mode}`);
      const l = d.lines(RECEIPTS).find((x) => x.seq === probe.seq)!;
      const r = receiptOf(l);
      const action = r.get('action') as JsonObject;
      const params = action.get('parameters') as JsonObject;
      params.set(key, honest);
      action.set('parameter_hash', sha256Hex(canonicalBytes(params)));
      resign(r, 'tool', base.kernel);
      let text = withReceipt(l, r);
      let target: Target | undefined;
      if (mode === 'escaped') {
        // Every non-ASCII character of the value as a \u escape (surrogate pairs for astral ones): the same string.
        const escaped = JSON.stringify(honest).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
        text = text.replace(JSON.stringify(key) + ':' + compactJson(new Map([['v', honest]])).slice(5, -1), JSON.stringify(key) + ':' + escaped);
      } else if (mode === 'lookalike') {
        params.set(key, lookalike);
        text = withReceipt(l, r);
        target = {
          verdict: 'failed',
          codes: ['signature_invalid', 'parameter_hash_mismatch', ...(l.generation === 'B' ? (['receipt_id_mismatch'] as const) : [])],
        };
      } else {
        // The key itself changed to a lookalike (NFD, homoglyph, zero-width).
        const other = key.normalize('NFD') !== key ? key.normalize('NFD') : key + '\u200b';
        text = text.replace(JSON.stringify(key) + ':', JSON.stringify(other) + ':');
        target = {
          verdict: 'failed',
          codes: ['signature_invalid', 'parameter_hash_mismatch', ...(l.generation === 'B' ? (['receipt_id_mismatch'] as const) : [])],
        };
      }
      if (text === withReceipt(l, r) && mode === 'escaped' && !/[^\x20-\x7e]/.test(honest)) continue;
      d.replace(l, { text, ...(target ? { target } : {}) });
      if (!target) d.harmless = true;
      out.push(d.build());
    }
  }
  return out;
};

/** Keys outside the signed field set: shown as unsigned, the signed content still verifies. */
const unsignedField: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const all = new Draft(base, 'unsigned-field', '').records(['tool', 'child']);
  for (let i = 0; i < n; i++) {
    const probe = all[i % all.length]!;
    const name = rng.pick(['note', 'x_forwarded_verdict', 'approved_by', 'verdict_override']);
    const d = new Draft(base, 'unsigned-field', `${probe.kind} seq ${probe.seq}: unsigned top-level "${name}"`);
    const l = d.records([probe.kind!]).find((x) => x.seq === probe.seq)!;
    const r = receiptOf(l);
    r.set(name, rng.pick(['allow', 'verified', '<b>trusted</b>']));
    // The receipt is not tampered (its signed bytes are the same); it must still verify, with the warning.
    d.replace(l, { text: withReceipt(l, r), target: { verdict: 'verified', codes: ['unsigned_field'] } });
    out.push(d.build());
  }
  return out;
};

const algorithmLie: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const all = new Draft(base, 'algorithm-lie', '').records(['tool', 'child']);
  for (let i = 0; i < n; i++) {
    const probe = all[i % all.length]!;
    const claim = rng.pick(['p256', 'p384', 'bbs', 'ml-dsa-65', 'hybrid', 'ed448']);
    const d = new Draft(base, 'algorithm-lie', `${probe.kind} seq ${probe.seq}: "algorithm":"${claim}" on an Ed25519 signature`);
    const l = d.records([probe.kind!]).find((x) => x.seq === probe.seq)!;
    const r = receiptOf(l);
    r.set('algorithm', claim);
    d.replace(l, { text: withReceipt(l, r), target: { verdict: 'failed', codes: ['algorithm_mismatch'] } });
    out.push(d.build());
  }
  // The truth is not a lie: "ed25519" is the default and changes nothing.
  const d = new Draft(base, 'algorithm-lie', 'tool seq 1: "algorithm":"ed25519" (true)');
  const l = d.lines(RECEIPTS)[0]!;
  const r = receiptOf(l);
  r.set('algorithm', 'ed25519');
  d.replace(l, { text: withReceipt(l, r), target: { verdict: 'verified', codes: [] } });
  out.push(d.build());
  return out;
};

const manifest: Maker = (base, rng) => {
  const out: Variant[] = [];
  const m = parse(base.files.get(MANIFEST) as string);
  for (const entry of m.get('files') as JsonObject[]) {
    for (const field of ['sha256', 'bytes'] as const) {
      const d = new Draft(base, 'manifest', `manifest.json: ${entry.get('path') as string} ${field} changed`);
      d.fixManifest = false;
      const mm = parse(d.files.get(MANIFEST) as string);
      const e = (mm.get('files') as JsonObject[]).find((x) => x.get('path') === entry.get('path'))!;
      e.set(field, changedValue(e.get(field)!, rng)!);
      d.files.set(MANIFEST, JSON.stringify(JSON.parse(compactJson(mm)), null, 2));
      d.codes.push('manifest_mismatch');
      d.ok = false;
      out.push(d.build());
    }
  }
  const counts = m.get('counts') as JsonObject;
  for (const key of counts.keys()) {
    const d = new Draft(base, 'manifest', `manifest.json: counts.${key} changed`);
    d.fixManifest = false;
    const mm = parse(d.files.get(MANIFEST) as string);
    const c = mm.get('counts') as JsonObject;
    c.set(key, changedValue(c.get(key)!, rng)!);
    d.files.set(MANIFEST, attackerFilesOnly(d, mm));
    d.codes.push('manifest_mismatch');
    d.ok = false;
    out.push(d.build());
  }
  // A receipt changed and the manifest left as it was: both the file and the receipt fail.
  const probe = rng.pick(new Draft(base, 'manifest', '').records(['tool']));
  const d = new Draft(base, 'manifest', `tool seq ${probe.seq} changed, manifest.json not updated`);
  d.fixManifest = false;
  const l = d.lines(RECEIPTS).find((x) => x.seq === probe.seq)!;
  const r = receiptOf(l);
  r.set('tool_name', otherTool(r));
  d.replace(l, { text: withReceipt(l, r), target: { verdict: 'failed', codes: signedChangeCodes(l) } });
  d.codes.push('manifest_mismatch');
  out.push(d.build());
  return out;
};

/** manifest.json with its files' hashes as they are (so only the counts are wrong). */
function attackerFilesOnly(d: Draft, mm: JsonObject): string {
  const counts = compactJson(mm.get('counts')!);
  const fixed = parse(
    attackerManifest({
      ...Object.fromEntries([...d.files].map(([k, v]) => [k, typeof v === 'string' ? v : v.map((l) => l.text + '\n').join('')])),
      [MANIFEST]: compactJson(mm),
    }),
  );
  fixed.set('counts', parse(counts));
  return JSON.stringify(JSON.parse(compactJson(fixed)), null, 2);
}

/** Gen A read as Gen B and back: marker keys added to a Gen A receipt, or removed from a Gen B one. */
const generationConfusion: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const tools = new Draft(base, 'generation-confusion', '').records(['tool']);
  const genA = tools.filter((l) => l.generation === 'A');
  const genB = tools.filter((l) => l.generation === 'B');
  for (let i = 0; i < n; i++) {
    const toB = i % 2 === 0;
    const probe = toB ? genA[i % genA.length]! : genB[i % genB.length]!;
    const d = new Draft(base, 'generation-confusion', `tool seq ${probe.seq}: Gen ${toB ? 'A dressed as Gen B' : 'B stripped to Gen A'}`);
    const l = d.lines(RECEIPTS).find((x) => x.seq === probe.seq)!;
    const r = receiptOf(l);
    if (toB) {
      r.set('receipt_kind', 'mediated_decision');
      r.set('boundary_class', 'prevent');
      r.set('tool_origin', 'caller_executed');
      r.set('trust_level', 'mediated');
      if (rng.chance(0.5)) {
        // ...and its id made content-addressed, as a Gen B id is (the signature is still Gen A's).
        const d2 = decodeToolReceipt(r);
        if (d2.ok && d2.value.genB) r.set('id', sha256Hex(canonicalBytes(d2.value.genB.idInput)));
      }
    } else {
      for (const k of ['receipt_kind', 'boundary_class', 'observation_outcome', 'tool_origin', 'redaction_mode', 'actor_chain']) r.delete(k);
    }
    d.replace(l, {
      text: withReceipt(l, r),
      target: { verdict: 'failed', codes: signedChangeCodes({ ...l, generation: toB ? 'A' : 'B' }).filter((c) => c !== 'receipt_id_mismatch') },
    });
    out.push(d.build());
  }
  return out;
};

/** Gen B combinations the table of §5 does not allow, signed by the kernel itself (a kernel bug). */
const semantics: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const tail = new Draft(base, 'semantics', '').records(['tool']).filter((l) => l.generation === 'B' && l.checkpointSeq === undefined);
  const edits: [string, (r: JsonObject) => void][] = [
    ['boundary_class detect_only', (r) => r.set('boundary_class', 'detect_only')],
    ['boundary_class advisory_only', (r) => r.set('boundary_class', 'advisory_only')],
    ['boundary_class cannot_see', (r) => r.set('boundary_class', 'cannot_see')],
    ['trust_level verified', (r) => r.set('trust_level', 'verified')],
    ['trust_level advisory', (r) => r.set('trust_level', 'advisory')],
    ['an observation_outcome', (r) => r.set('observation_outcome', 'observed')],
    ['receipt_kind trace_observation with a decision', (r) => r.set('receipt_kind', 'trace_observation')],
  ];
  for (let i = 0; i < n; i++) {
    const probe = tail[i % tail.length]!;
    const [what, edit] = rng.pick(edits);
    const d = new Draft(base, 'semantics', `tail seq ${probe.seq}: ${what}, signed by the kernel`);
    const l = d.lines(RECEIPTS).find((x) => x.seq === probe.seq)!;
    const r = receiptOf(l);
    edit(r);
    if (!decodes({ ...l, text: withReceipt(l, r) })) continue;
    resign(r, 'tool', base.kernel);
    d.replace(l, { text: withReceipt(l, r), target: { verdict: 'failed', codes: ['semantics_invalid'] } });
    out.push(d.build());
  }
  return out;
};

/**
 * A new receipt at the end of the tail, made from the Gen A receipt `from` with a fresh id,
 * changed by `edit` and signed by the kernel (`legacyC1`: with the old DEL/C1 escaping).
 */
function appendGenA(d: Draft, from: Line, tag: string, edit: (r: JsonObject) => void, opts: { legacyC1?: boolean } = {}): { line: Line; receipt: JsonObject } {
  const lines = d.lines(RECEIPTS);
  const seq = Math.max(...lines.map((x) => x.seq!)) + 1;
  const r = receiptOf(from);
  r.set('id', `rcpt-adversary-${tag}`);
  edit(r);
  resign(r, 'tool', d.base.kernel, opts);
  const line: Line = { text: withReceipt(from, r, seq), kind: 'tool', seq, generation: 'A' };
  lines.push(line);
  return { line, receipt: r };
}

/** Receipts signed the old Rust way (DEL and C1 controls escaped): they pass with a warning; changed, they fail. */
const legacyCanonicalization: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const genA = new Draft(base, 'legacy-canonicalization', '').records(['tool']).filter((l) => l.generation === 'A');
  for (let i = 0; i < n; i++) {
    const from = genA[i % genA.length]!;
    const c = String.fromCharCode(rng.pick([0x7f, 0x80, 0x85, 0x9b, 0x9f]));
    const note = `note${c}${rng.hex(6)}`;
    for (const tamper of [false, true]) {
      const d = new Draft(
        base,
        'legacy-canonicalization',
        `a Gen A receipt (from seq ${from.seq}) with U+${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()} in its parameters, legacy-signed${tamper ? ', then changed' : ''}`,
      );
      const { line, receipt } = appendGenA(
        d,
        from,
        `legacy-${i}-${tamper}`,
        (r) => {
          const action = r.get('action') as JsonObject;
          const params = action.get('parameters') as JsonObject;
          params.set('note', note);
          action.set('parameter_hash', sha256Hex(canonicalBytes(params)));
        },
        { legacyC1: true },
      );
      if (tamper) {
        receipt.set('tool_name', otherTool(receipt));
        d.replace(line, { text: withReceipt(line, receipt), target: { verdict: 'failed', codes: ['signature_invalid'] } });
      } else {
        d.replace(line, { target: { verdict: 'verified', codes: ['legacy_canonicalization'] } });
        d.ok = true;
      }
      out.push(d.build());
    }
  }
  return out;
};

/** A new financial receipt whose budget_remaining does (control) or does not follow from its group's last one (§9). */
const reconciliation: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const probe = new Draft(base, 'reconciliation', '');
  const fin = (l: Line) => (receiptOf(l).get('metadata') as JsonObject | undefined)?.get('financial') as JsonObject | undefined;
  const paid = probe
    .records(['tool'])
    .filter((l) => l.generation === 'A' && fin(l) !== undefined && (receiptOf(l).get('decision') as JsonObject).get('verdict') === 'allow');
  for (let i = 0; i < n; i++) {
    const from = paid[i % paid.length]!;
    const f = fin(from)!;
    const group = (l: Line) =>
      receiptOf(l).get('capability_id') === receiptOf(from).get('capability_id') &&
      compactJson(fin(l)?.get('grant_index') ?? null) === compactJson(f.get('grant_index')!);
    const last = probe
      .records(['tool'])
      .filter((l) => fin(l) !== undefined && group(l))
      .at(-1)!;
    const previous = BigInt((fin(last)!.get('budget_remaining') as JsonNumber).raw);
    const cost = previous > 0n ? BigInt(rng.int(0, Number(previous < 1000n ? previous : 1000n))) : 0n;
    for (const broken of [false, true]) {
      const remaining = previous - cost + (broken ? BigInt(rng.pick([1, -1, 1000])) : 0n);
      const d = new Draft(
        base,
        'reconciliation',
        `a payment in ${compactJson(receiptOf(from).get('capability_id')!)} charging ${cost}, remaining ${remaining} after ${previous}${broken ? ' (does not add up)' : ''}`,
      );
      const { line } = appendGenA(d, from, `fin-${i}-${broken}`, (r) => {
        const ff = (r.get('metadata') as JsonObject).get('financial') as JsonObject;
        ff.set('cost_charged', new JsonNumber(String(cost)));
        ff.set('budget_remaining', new JsonNumber(String(remaining)));
        ff.set('settlement_status', cost > 0n ? 'settled' : 'not_applicable');
      });
      // Signed by the kernel: the receipt verifies; the break is a warning about the budget.
      d.replace(line, { target: { verdict: 'verified', codes: broken ? ['reconciliation_break'] : [] } });
      d.ok = true;
      out.push(d.build());
    }
  }
  return out;
};

/** Checkpoint v2 (format §16.3): the kernel signs a chain that is not its chain. */
const chainRoot: Maker = (base, rng) => {
  const out: Variant[] = [];
  const v2 = new Draft(base, 'chain-root', '')
    .records(['checkpoint'])
    .filter((l) => parse(l.text).get('body') instanceof Map && (parse(l.text).get('body') as JsonObject).get('schema') === 'chio.checkpoint_statement.v2');
  for (const probe of v2) {
    for (const mode of ['another root', 'the previous root', 'dropped', 'relabelled v1'] as const) {
      const d = new Draft(base, 'chain-root', `checkpoint ${probe.seq}: chain_root ${mode}, re-signed by the kernel`);
      const l = d.lines(CHECKPOINTS).find((x) => x.seq === probe.seq)!;
      const prevRoot = (d.lines(CHECKPOINTS).find((x) => x.seq === probe.seq! - 1) ?? l).text.match(/"chain_root":"(0x[0-9a-f]{64})"/)?.[1];
      if (mode === 'the previous root' && (probe.seq === 1 || prevRoot === undefined)) continue;
      const rewritten = mode === 'another root' || mode === 'the previous root';
      const code: ProblemCode = rewritten
        ? probe.seq === 1
          ? 'checkpoint_structure_invalid'
          : 'checkpoint_chain_invalid'
        : mode === 'dropped'
          ? 'checkpoint_continuity_broken'
          : 'checkpoint_structure_invalid';
      d.replace(l, {
        text: checkpointText(l, base.kernel, (b) => {
          if (mode === 'another root') b.set('chain_root', '0x' + rng.hex(64));
          if (mode === 'the previous root') b.set('chain_root', prevRoot!);
          if (mode === 'dropped') b.delete('chain_root');
          if (mode === 'relabelled v1') b.set('schema', 'chio.checkpoint_statement.v1');
        }),
        target: { verdict: 'failed', codes: [code] },
      });
      // Its batch loses its voucher; the next one names the original body, which is gone.
      d.zoneAfterCheckpoint(probe.seq!);
      d.codes.push('transparency_record_mismatch');
      out.push(d.build());
    }
  }
  return out;
};

/** The unsigned transparency records (format §9.5, §16.4–§16.5): one field changed. */
const transparency: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const files = ['checkpoint-publications.ndjson', 'checkpoint-witnesses.ndjson', 'checkpoint-consistency-proofs.ndjson'];
  const all = files.flatMap((file) => ((base.files.get(file) as Line[] | undefined) ?? []).map((_, i) => ({ file, i })));
  for (let k = 0; k < Math.min(n, all.length * 3); k++) {
    const { file, i } = k < all.length ? all[k]! : rng.pick(all);
    const d = new Draft(base, 'transparency', '');
    const line = d.lines(file)[i]!;
    const v = parse(line.text);
    const fields = leaves(v).filter((p) => p.path[0] !== 'schema' || rng.chance(0.2));
    const p = rng.pick(fields);
    const next = changedValue(p.value, rng);
    if (next === undefined) continue;
    setAt(v, p.path, next);
    d.lines(file)[i] = { text: compactJson(v), target: { verdict: 'absent', codes: ['transparency_record_mismatch'] } };
    // A v2 consistency record that no longer verifies fails the chain of the checkpoint it ends at.
    if (file.includes('consistency')) {
      const to = Number((parse(line.text).get('to_checkpoint_seq') as JsonNumber).raw);
      d.zoneBatch(to);
      d.zoneCheckpoint(to);
      // Unless it now names a body the log does not hold, the record still ends at its checkpoint.
      if (p.path[0] !== 'from_checkpoint_sha256' && p.path[0] !== 'to_checkpoint_sha256') d.codes.push('checkpoint_chain_invalid');
    }
    d.ok = false;
    out.push(Object.assign(d, { name: `${file}:${i + 1}: ${p.path.join('.')} changed` }).build());
  }
  return out;
};

/** Two receipts of one batch swap their seq labels (unsigned), proofs included: the leaves still reach the root. */
const proofPosition: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const tools = new Draft(base, 'proof-position', '').records(['tool']).filter((l) => l.checkpointSeq !== undefined);
  for (let k = 0; k < n; k++) {
    const a = rng.pick(tools);
    const others = tools.filter((t) => t.checkpointSeq === a.checkpointSeq && t.seq !== a.seq);
    if (others.length === 0) continue;
    const b = rng.pick(others);
    const d = new Draft(base, 'proof-position', `seq ${a.seq} and ${b.seq} swap their seq labels and proofs (same batch)`);
    const la = d.lines(RECEIPTS).find((x) => x.seq === a.seq)!;
    const lb = d.lines(RECEIPTS).find((x) => x.seq === b.seq)!;
    d.replace(la, { text: withReceipt(la, receiptOf(la), b.seq), target: { verdict: 'verified', codes: ['inclusion_position_mismatch'] } });
    d.replace(lb, { text: withReceipt(lb, receiptOf(lb), a.seq), target: { verdict: 'verified', codes: ['inclusion_position_mismatch'] } });
    const proofs = d.lines(PROOFS);
    for (let i = 0; i < proofs.length; i++) {
      const seq = /"receipt_seq":(\d+)/.exec(proofs[i]!.text)?.[1];
      const swapTo = seq === String(a.seq) ? b.seq : seq === String(b.seq) ? a.seq : undefined;
      if (swapTo !== undefined) proofs[i] = { text: proofs[i]!.text.replace(/"receipt_seq":\d+/, `"receipt_seq":${swapTo}`) };
    }
    d.ok = true;
    out.push(d.build());
  }
  return out;
};

/**
 * Signed capability lineage (contract part 2 §5.3.1): the demo signs each capability token, so
 * every row of the base log verifies. One row tampered per variant, in turn: a token field changed
 * (subject, scope), the token stripped with its provenance, the row relabelled legacy_projection
 * with its token kept, a delegation-depth lie, grants_json
 * widened, the row's subject swapped (its receipts' attribution then disagrees), the row deleted
 * (its receipts then have none), an `algorithm` that lies, and the token re-issued under an
 * attacker's key with the row rewritten to match: intact under its own issuer, so the row is
 * verified; only its receipts' signed attribution shows the swap (a warning). Nothing pins who a
 * token's issuer must be: the variant keeps that gap visible.
 */
const lineage: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const rows = (base.files.get(LINEAGE) as Line[] | undefined) ?? [];
  if (rows.length === 0) return out;
  const capOf = (l: Line) => /"capability_id":"([^"]*)"/.exec(l.text)?.[1];
  const used = new Set(new Draft(base, 'lineage', '').records(['tool']).map((l) => capOf(l)));
  const usedRows = rows.map((_, i) => i).filter((i) => used.has(capOf(rows[i]!)));
  const kinds = ['token-subject', 'token-scope', 'downgrade', 'relabel', 'depth', 'grants', 'row-subject', 'drop', 'algorithm', 'reissued'] as const;
  // Each kind at least ten times, so every lineage code is required by many variants.
  for (let k = 0; k < Math.max(n, 10 * kinds.length); k++) {
    const kind = kinds[k % kinds.length]!;
    const i = rng.pick(usedRows);
    const d = new Draft(base, 'lineage', `${LINEAGE}:${i + 1}: ${kind}`);
    const lines = d.lines(LINEAGE);
    const row = parse(lines[i]!.text);
    const token = row.get('signed_capability') as JsonObject;
    const cap = row.get('capability_id') as string;
    const fail = (...codes: ProblemCode[]) => (lines[i] = { text: compactJson(row), target: { verdict: 'failed', codes } });
    const receiptsOf = () => d.lines(RECEIPTS).filter((l) => capOf(l) === cap);
    const warnReceipts = (code: ProblemCode) => {
      for (const l of receiptsOf()) d.replace(l, { target: { verdict: 'verified', codes: [code] } });
    };
    if (kind === 'token-subject') {
      token.set('subject', base.attacker.publicHex);
      fail('lineage_signature_invalid', 'lineage_mismatch');
    } else if (kind === 'token-scope') {
      token.set('scope', parse('{"grants":[{"server_id":"*","tool_name":"*","operations":["invoke"]}]}'));
      fail('lineage_signature_invalid', 'lineage_mismatch');
    } else if (kind === 'downgrade') {
      row.delete('signed_capability');
      row.delete('provenance');
      fail('lineage_downgraded');
    } else if (kind === 'relabel') {
      row.set('provenance', 'legacy_projection');
      fail('lineage_downgraded');
    } else if (kind === 'depth') {
      row.set('delegation_depth', new JsonNumber(String(Number((row.get('delegation_depth') as JsonNumber).raw) + 1)));
      fail('lineage_mismatch');
    } else if (kind === 'grants') {
      row.set('grants_json', '{"grants":[{"server_id":"*","tool_name":"*","operations":["invoke"]}]}');
      fail('lineage_mismatch');
    } else if (kind === 'row-subject') {
      row.set('subject_key', base.attacker.publicHex);
      fail('lineage_mismatch');
      warnReceipts('attribution_mismatch');
    } else if (kind === 'drop') {
      lines.splice(i, 1);
      warnReceipts('lineage_missing');
    } else if (kind === 'algorithm') {
      token.set('algorithm', 'p256');
      fail('lineage_signature_invalid');
    } else {
      token.set('issuer', base.attacker.publicHex);
      const decoded = decodeCapabilityToken(token);
      if (!decoded.ok) throw new Error('adversary: the demo token does not decode');
      token.set('signature', base.attacker.sign(canonicalBytes(decoded.token.signingBody)));
      row.set('issuer_key', base.attacker.publicHex);
      lines[i] = { text: compactJson(row), target: { verdict: 'verified', codes: [] } };
      warnReceipts('attribution_mismatch');
    }
    d.ok = kind === 'drop' || kind === 'reissued';
    out.push(d.build());
  }
  return out;
};

/**
 * The package's query (contract part 2 §5.3): the attacker rewrites query.json and the manifest's
 * query (and recomputes the manifest) to claim a narrower export than the receipts it holds, or
 * drops the read boundary. A receipt outside the query is genuine, so it stays verified; the
 * package's claim about it is what fails (`scope`).
 */
const packageQuery: Maker = (base, rng, n) => {
  const out: Variant[] = [];
  const tools = new Draft(base, 'package-query', '').records(['tool']);
  const stamp = (l: Line) => Number((receiptOf(l).get('timestamp') as JsonNumber).raw);
  const setQuery = (d: Draft, query: Record<string, unknown>) => {
    const text = JSON.stringify(query, null, 2);
    d.files.set('query.json', text);
    const m = JSON.parse(d.files.get(MANIFEST) as string) as Record<string, unknown>;
    m.query = query;
    d.files.set(MANIFEST, JSON.stringify(m, null, 2));
  };
  // The read boundary dropped (upstream refuses such a package; the contract warns): alone, or
  // beside a time window that still holds every receipt.
  const first = Math.min(...tools.map(stamp));
  const last = Math.max(...tools.map(stamp));
  for (let i = 0; i < 12; i++) {
    const window = i === 0 ? {} : { since: first - rng.int(0, 3600), until: last + rng.int(0, 3600) };
    const d = new Draft(base, 'package-query', `the read boundary dropped from the query ${JSON.stringify(window)}`);
    setQuery(d, window);
    d.codes.push('read_boundary_missing');
    d.ok = true;
    out.push(d.build());
  }
  for (let i = 0; i < n; i++) {
    const mode = rng.pick(['since', 'until'] as const);
    const cut = rng.pick(tools.slice(1, -1));
    const at = stamp(cut);
    const d = new Draft(base, 'package-query', `query narrowed: ${mode} ${at} (seq ${cut.seq})`);
    setQuery(d, { readBoundary: { kind: 'admin_all' }, [mode]: at });
    const outside = (l: Line) => (mode === 'since' ? stamp(l) < at : stamp(l) > at);
    let any = false;
    for (const l of d.lines(RECEIPTS)) {
      if (l.kind !== 'tool' || !outside(l)) continue;
      d.replace(l, { target: { verdict: 'verified', codes: ['query_scope_violation'] } });
      any = true;
    }
    if (!any) continue;
    d.ok = false;
    out.push(d.build());
  }
  return out;
};

const MAKERS: Record<TamperClass, Maker> = {
  'signed-field': signedField,
  'checkpoint-field': checkpointField,
  'signature-bit': signatureBit,
  'malleable-signature': malleable,
  'key-swap': keySwap,
  'unpinned-resign': unpinnedResign,
  delete: deletion,
  insert: insertion,
  substitute: substitution,
  reorder,
  fork,
  rollback,
  'chain-broken': chainBroken,
  'tree-size': treeSize,
  'duplicate-key': duplicateKey,
  'big-number': bigNumber,
  unicode,
  'unsigned-field': unsignedField,
  'algorithm-lie': algorithmLie,
  manifest,
  'generation-confusion': generationConfusion,
  semantics,
  'legacy-canonicalization': legacyCanonicalization,
  reconciliation,
  'chain-root': chainRoot,
  transparency,
  'proof-position': proofPosition,
  'package-query': packageQuery,
  lineage,
};

/** All variants of `classes` from `seed`; `scale` multiplies the seeded draws (the fixed enumerations stay whole). */
export function makeVariants(base: BaseLog, seed: string, scale = 1, classes: readonly TamperClass[] = TAMPER_CLASSES): Variant[] {
  const n = Math.max(1, Math.round(80 * scale));
  return classes.flatMap((cls) => MAKERS[cls](base, new Prng(seed, cls), cls === 'signed-field' ? Math.round(1200 * scale) : n));
}
