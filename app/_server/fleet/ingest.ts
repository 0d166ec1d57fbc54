// Server side only (Node): `receipt-audit ingest <package|store>… --clickhouse URL` (issue 9).
// Loads the tool receipts, child receipts, checkpoints and inclusion proofs of many kernels'
// evidence packages and SQLite stores into the fleet's Distributed tables (./schema.ts).
//
// - Every record is stored as exported, byte for byte: a package's `{"seq":N,"receipt":R}` line
//   gives R's exact text; a checkpoint or proof line is stored whole. Nothing is re-serialized.
// - Indexed columns are read from the receipt (JSON.parse; a cost beyond 2^53 is read exactly
//   from its digits). The index is for finding receipts only: the browser verifies what it shows.
// - A store is first exported as a package (the same code as /v1/evidence/package), then read.
// - Re-ingesting adds nothing: before each batch is inserted, the rows of its seq range already in
//   the cluster are read back; the same receipt is skipped, a different one at that seq rejected.
// - A bad record is rejected with its file and line (for a store: its table and seq), and
//   everything else is ingested.
// - One ingest at a time per cluster: fleet_seq continues from the cluster's max.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { parseJson } from '../../../lib/json/parse';
import { isJsonNumber, isJsonObject, type JsonValue } from '../../../lib/json/value';
import { writeEvidencePackage } from '../export';
import { ClickHouse, tsvField } from './clickhouse';
import { schemaProblem } from './schema';
import { col, list, sql, str, table, u64, type Sql } from './sql';

const BATCH = 20_000;
const HEX64 = /^[0-9a-f]{64}$/;
const DIGITS = /^(?:0|[1-9][0-9]*)$/;
const SEQ = /^(?:0|[1-9][0-9]{0,19})$/;

/**
 * `{"seq":N,"receipt":R}` as Chio's export writes it: R is then the receipt's exact text (once
 * JSON.parse has read R as one object, nothing else can follow it in the line).
 */
function receiptLine(line: string): { seq: string; raw: string } | null {
  if (!line.startsWith('{"seq":')) return null;
  const at = line.indexOf(',"receipt":', 7);
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) <= 32) end--;
  if (at < 0 || line[end - 1] !== '}') return null;
  const seq = line.slice(7, at);
  return SEQ.test(seq) ? { seq, raw: line.slice(at + 11, end - 1) } : null;
}

export interface KernelCounts {
  toolAdded: number;
  childAdded: number;
  checkpointsAdded: number;
  proofsAdded: number;
  /** Records already in the cluster (skipped). */
  alreadyPresent: number;
}

export interface Rejected {
  /** `file:line`, or `store: table seq N`. */
  where: string;
  reason: string;
}

export interface IngestReport {
  kernels: Map<string, KernelCounts>;
  rejected: Rejected[];
  /** Receipts read (tool and child), whether added, present or rejected. */
  receiptsRead: number;
  seconds: number;
}

interface ReceiptRow {
  kernel: string;
  kind: 'tool' | 'child';
  seq: bigint;
  id: string;
  signer: string;
  timestamp: bigint;
  capabilityId: string;
  subjectKey: string;
  toolServer: string;
  toolName: string;
  decision: string;
  cost: string;
  currency: string;
  checkpointSeq: bigint;
  source: string;
  raw: string;
  where: string;
}

interface CheckpointRow {
  kernel: string;
  checkpointSeq: bigint;
  start: bigint;
  end: bigint;
  treeSize: bigint;
  issuedAt: bigint;
  source: string;
  raw: string;
  where: string;
}

interface ProofRow {
  kernel: string;
  seq: bigint;
  checkpointSeq: bigint;
  source: string;
  raw: string;
  where: string;
}

class Reject extends Error {}

const obj = (v: unknown): Record<string, unknown> | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

function text(o: Record<string, unknown>, key: string, what: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new Reject(`${what}.${key} must be a string`);
  return v;
}

function optText(o: Record<string, unknown> | undefined, key: string): string {
  const v = o?.[key];
  return typeof v === 'string' ? v : '';
}

/** A u64 field, exact: a number JSON.parse could not hold exactly is read again from the digits. */
function u64Of(o: Record<string, unknown>, key: string, what: string, exact: () => JsonValue | undefined): bigint {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new Reject(`${what}.${key} must be a non-negative integer`);
  if (Number.isSafeInteger(v)) return BigInt(v);
  const raw = exact();
  if (!isJsonNumber(raw) || !DIGITS.test(raw.raw) || BigInt(raw.raw) >= 1n << 64n) throw new Reject(`${what}.${key} must be a u64`);
  return BigInt(raw.raw);
}

/** The exact JSON value at `keys` of `text` (lossless parse; only for the rare number beyond 2^53). */
function exactAt(raw: string, keys: string[]): JsonValue | undefined {
  const parsed = parseJson(raw);
  if (!parsed.ok) return undefined;
  let v: JsonValue | undefined = parsed.value;
  for (const k of keys) v = isJsonObject(v) ? v.get(k) : undefined;
  return v;
}

/** metadata.financial.cost_charged as written when it is a non-negative integer, else ''. */
function costOf(receipt: Record<string, unknown>, raw: string): string {
  const v = obj(obj(obj(receipt.metadata)?.financial))?.cost_charged;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return '';
  if (Number.isSafeInteger(v)) return String(v);
  const exact = exactAt(raw, ['metadata', 'financial', 'cost_charged']);
  return isJsonNumber(exact) && DIGITS.test(exact.raw) ? exact.raw : '';
}

interface Source {
  /** The package folder (or the store file) as given. */
  label: string;
  /** Where a record of `file` at `line` is, for people. */
  where(file: string, line: number, seq?: bigint): string;
  dir: string;
  cleanup?: () => void;
}

/**
 * The non-blank lines of `file` with their 1-based numbers, read in 8 MiB chunks (readline's
 * per-line events were a tenth of an ingest). Invalid UTF-8 becomes U+FFFD, as in any decoder:
 * a receipt changed so no longer verifies, which the browser then says.
 */
async function* lines(file: string): AsyncGenerator<[line: string, n: number]> {
  if (!existsSync(file)) return;
  const fh = await open(file, 'r');
  try {
    const decoder = new TextDecoder('utf-8');
    const buf = Buffer.allocUnsafe(8 << 20);
    let rest = '';
    let n = 0;
    const emit = function* (line: string): Generator<[string, number]> {
      n++;
      const text = line.endsWith('\r') ? line.slice(0, -1) : line;
      if (text.length > 0 && (text.charCodeAt(0) > 32 || text.trim() !== '')) yield [text, n];
    };
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      const text = rest + (bytesRead > 0 ? decoder.decode(buf.subarray(0, bytesRead), { stream: true }) : decoder.decode());
      let start = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
        yield* emit(text.slice(start, nl));
        start = nl + 1;
      }
      rest = text.slice(start);
      if (bytesRead === 0) break;
    }
    if (rest !== '') yield* emit(rest);
  } finally {
    await fh.close();
  }
}

export class FleetIngest {
  private readonly report: IngestReport = { kernels: new Map(), rejected: [], receiptsRead: 0, seconds: 0 };
  private nextFleetSeq = 0n;
  private readonly started = performance.now();
  private pending: ReceiptRow[] = [];

  constructor(private readonly ch: ClickHouse) {}

  static async open(url: string): Promise<FleetIngest> {
    const ch = new ClickHouse(url);
    const problem = await schemaProblem(ch);
    if (problem) throw new Error(problem);
    const ingest = new FleetIngest(ch);
    const [row] = await ch.rows<{ next: string }>(sql`SELECT max(fleet_seq) + 1 AS next FROM receipts`);
    ingest.nextFleetSeq = BigInt(row?.next ?? '1');
    if (ingest.nextFleetSeq === 0n) ingest.nextFleetSeq = 1n;
    return ingest;
  }

  private counts(kernel: string): KernelCounts {
    let c = this.report.kernels.get(kernel);
    if (!c) this.report.kernels.set(kernel, (c = { toolAdded: 0, childAdded: 0, checkpointsAdded: 0, proofsAdded: 0, alreadyPresent: 0 }));
    return c;
  }

  private reject(where: string, reason: string): void {
    this.report.rejected.push({ where, reason });
  }

  /** Ingests one evidence-package folder or Chio SQLite store. */
  async add(input: string): Promise<void> {
    const source = this.sourceOf(input);
    try {
      await this.addPackage(source);
    } finally {
      source.cleanup?.();
    }
  }

  private sourceOf(input: string): Source {
    const st = statSync(input, { throwIfNoEntry: false });
    if (!st) throw new Error(`${input}: no such file or folder`);
    if (st.isDirectory()) {
      if (!existsSync(path.join(input, 'receipts.ndjson')) && !existsSync(path.join(input, 'manifest.json'))) throw new Error(`${input}: not an evidence package (no receipts.ndjson or manifest.json)`);
      return { label: input, dir: input, where: (file, line) => `${path.join(input, file)}:${line}` };
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), 'receipt-audit-ingest-'));
    try {
      const db = new Database(input, { readonly: true, fileMustExist: true });
      try {
        const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
        if (!tables.includes('chio_tool_receipts')) throw new Error(`${input}: not a Chio receipt store (no chio_tool_receipts table)`);
        // The same export the server offers as /v1/evidence/package: proofs rebuilt from each batch.
        writeEvidencePackage(db, input, path.join(dir, 'pkg'), {}, Math.floor(st.mtimeMs / 1000));
      } finally {
        db.close();
      }
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      const why = e instanceof Error ? e.message : String(e);
      throw new Error(why.startsWith(input) ? why : `${input}: not a readable Chio receipt store (${why})`);
    }
    const table = (file: string) => (file === 'child-receipts.ndjson' ? 'chio_child_receipts' : file === 'checkpoints.ndjson' ? 'kernel_checkpoints' : file === 'inclusion-proofs.ndjson' ? 'inclusion proof of' : 'chio_tool_receipts');
    return {
      label: input,
      dir: path.join(dir, 'pkg'),
      where: (file, line, seq) => `${input}: ${table(file)} ${seq !== undefined ? `seq ${seq}` : `row ${line}`}`,
      cleanup: () => rmSync(dir, { recursive: true, force: true }),
    };
  }

  private async addPackage(src: Source): Promise<void> {
    // The package's kernel: the signer of its checkpoints (a package is one kernel's log).
    const checkpoints: CheckpointRow[] = [];
    let kernel: string | undefined;
    for await (const [line, n] of lines(path.join(src.dir, 'checkpoints.ndjson'))) {
      const where = src.where('checkpoints.ndjson', n);
      try {
        const cp = checkpointOf(line);
        kernel ??= cp.kernel;
        if (cp.kernel !== kernel) throw new Reject(`signed by kernel ${cp.kernel}, but this package's first checkpoint is signed by ${kernel}: a package is one kernel's log`);
        checkpoints.push({ ...cp, source: src.label, where: src.where('checkpoints.ndjson', n, cp.checkpointSeq) });
      } catch (e) {
        this.rejectError(where, e);
      }
    }
    const batches = checkpoints.map((c) => [c.start, c.end, c.checkpointSeq] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const checkpointFor = (seq: bigint): bigint => {
      let [lo, hi] = [0, batches.length - 1];
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const [s, e, cp] = batches[mid]!;
        if (seq < s) hi = mid - 1;
        else if (seq > e) lo = mid + 1;
        else return cp;
      }
      return 0n;
    };
    // Agent subjects for receipts without metadata.attribution, from the package's lineage.
    const subjects = new Map<string, string>();
    for await (const [line] of lines(path.join(src.dir, 'capability-lineage.ndjson'))) {
      try {
        const row = obj(JSON.parse(line));
        if (row && typeof row.capability_id === 'string' && typeof row.subject_key === 'string') subjects.set(row.capability_id, row.subject_key);
      } catch {
        // lineage only fills a search column; the receipts themselves are what is checked
      }
    }
    for (const [file, kind] of [['receipts.ndjson', 'tool'], ['child-receipts.ndjson', 'child']] as const) {
      for await (const [line, n] of lines(path.join(src.dir, file))) {
        this.report.receiptsRead++;
        const seqHint = /^\{"seq":(\d{1,20})[,}]/.exec(line)?.[1];
        try {
          const r = receiptOf(line, kind, kernel, subjects);
          const where = src.where(file, n, r.seq);
          this.pending.push({ ...r, checkpointSeq: kind === 'tool' ? checkpointFor(r.seq) : 0n, source: src.label, where });
          if (this.pending.length >= BATCH) await this.flushReceipts();
        } catch (e) {
          this.rejectError(src.where(file, n, seqHint !== undefined ? BigInt(seqHint) : undefined), e);
        }
      }
    }
    await this.flushReceipts();
    await this.settle();
    await this.insertCheckpoints(checkpoints);
    let proofs: ProofRow[] = [];
    for await (const [line, n] of lines(path.join(src.dir, 'inclusion-proofs.ndjson'))) {
      try {
        if (kernel === undefined) throw new Reject('an inclusion proof, but the package has no checkpoint');
        const p = proofOf(line);
        proofs.push({ kernel, ...p, source: src.label, where: src.where('inclusion-proofs.ndjson', n, p.seq) });
        if (proofs.length >= BATCH) {
          await this.insertProofs(proofs);
          proofs = [];
        }
      } catch (e) {
        this.rejectError(src.where('inclusion-proofs.ndjson', n), e);
      }
    }
    await this.insertProofs(proofs);
    await this.settle();
  }

  private rejectError(where: string, e: unknown): void {
    if (e instanceof Reject) this.reject(where, e.message);
    else if (e instanceof SyntaxError) this.reject(where, `not JSON (${e.message})`);
    else throw e;
  }

  /** Rows of `kernel`'s `kind` already in the cluster with seq in [lo, hi]: seq → receipt_id. */
  private async present(tableName: 'receipts' | 'checkpoints' | 'proofs', kernel: string, seqs: bigint[], kind?: 'tool' | 'child'): Promise<Map<bigint, string>> {
    const lo = seqs.reduce((a, b) => (a < b ? a : b));
    const hi = seqs.reduce((a, b) => (a > b ? a : b));
    const seqCol = tableName === 'checkpoints' ? col('checkpoint_seq') : col('seq');
    const what: Sql = tableName === 'receipts' ? col('receipt_id') : col('raw');
    const kindClause = kind ? sql` AND kind = ${str(kind)}` : sql``;
    const rows = await this.ch.rows<{ s: string; v: string }>(
      sql`SELECT ${seqCol} AS s, ${what} AS v FROM ${table(tableName)} WHERE kernel_key = ${str(kernel)}${kindClause} AND ${seqCol} BETWEEN ${u64(lo)} AND ${u64(hi)}`,
    );
    return new Map(rows.map((r) => [BigInt(r.s), r.v]));
  }

  /** Drops rows already present (same identity) and rejects rows whose seq holds something else. */
  private async fresh<T extends { kernel: string; where: string }>(
    rows: T[],
    tableName: 'receipts' | 'checkpoints' | 'proofs',
    seqOf: (r: T) => bigint,
    identity: (r: T) => string,
    kindOf?: (r: T) => 'tool' | 'child',
  ): Promise<T[]> {
    const groups = new Map<string, T[]>();
    for (const r of rows) {
      const key = `${r.kernel}\u0000${kindOf?.(r) ?? ''}`;
      const g = groups.get(key);
      if (g) g.push(r);
      else groups.set(key, [r]);
    }
    const out: T[] = [];
    for (const group of groups.values()) {
      const first = group[0]!;
      const present = await this.present(tableName, first.kernel, group.map(seqOf), kindOf?.(first));
      for (const r of group) {
        const seq = seqOf(r);
        const there = present.get(seq);
        if (there === undefined) {
          present.set(seq, identity(r));
          out.push(r);
        } else if (there === identity(r)) this.counts(r.kernel).alreadyPresent++;
        else this.reject(r.where, `kernel ${r.kernel.slice(0, 12)}… already has a different ${tableName === 'receipts' ? 'receipt' : tableName === 'checkpoints' ? 'checkpoint' : 'proof'} at seq ${seq} in the fleet`);
      }
    }
    return out;
  }

  /**
   * One insert in flight while the next batch is read. A batch is checked against the cluster
   * only once the batch before it is in, so a record given twice in one run is still added once.
   */
  private inflight: Promise<void> | null = null;

  private async settle(): Promise<void> {
    const pending = this.inflight;
    this.inflight = null;
    await pending;
  }

  private launch(insert: Promise<void>): void {
    insert.catch(() => {}); // awaited (and rethrown) by the next settle()
    this.inflight = insert;
  }

  private async flushReceipts(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    await this.settle();
    const rows = await this.fresh(batch, 'receipts', (r) => r.seq, (r) => r.id, (r) => r.kind);
    if (rows.length === 0) return;
    const tsv: string[] = [];
    for (const r of rows) {
      const fields = [this.nextFleetSeq++, r.kernel, r.kind, r.seq, r.id, r.signer, r.timestamp, r.capabilityId, r.subjectKey, r.toolServer, r.toolName, r.decision, r.cost, r.currency, r.checkpointSeq, r.source, r.raw];
      tsv.push(fields.map(tsvField).join('\t'));
      const c = this.counts(r.kernel);
      if (r.kind === 'tool') c.toolAdded++;
      else c.childAdded++;
    }
    const columns = list(['fleet_seq', 'kernel_key', 'kind', 'seq', 'receipt_id', 'signer_key', 'timestamp', 'capability_id', 'subject_key', 'tool_server', 'tool_name', 'decision_kind', 'cost_digits', 'currency', 'checkpoint_seq', 'source', 'raw_json'].map((c) => col(c as never)));
    this.launch(this.ch.insert(sql`${table('receipts')} (${columns})`, `${tsv.join('\n')}\n`, { insert_distributed_sync: '1' }));
  }

  private async insertCheckpoints(checkpoints: CheckpointRow[]): Promise<void> {
    if (checkpoints.length === 0) return;
    const rows = await this.fresh(checkpoints, 'checkpoints', (c) => c.checkpointSeq, (c) => c.raw);
    if (rows.length === 0) return;
    const tsv = rows.map((c) => [c.kernel, c.checkpointSeq, c.start, c.end, c.treeSize, c.issuedAt, c.source, c.raw].map(tsvField).join('\t'));
    for (const c of rows) this.counts(c.kernel).checkpointsAdded++;
    const columns = list((['kernel_key', 'checkpoint_seq', 'batch_start_seq', 'batch_end_seq', 'tree_size', 'issued_at', 'source', 'raw'] as const).map((c) => col(c)));
    await this.ch.insert(sql`${table('checkpoints')} (${columns})`, `${tsv.join('\n')}\n`, { insert_distributed_sync: '1' });
  }

  private async insertProofs(proofs: ProofRow[]): Promise<void> {
    if (proofs.length === 0) return;
    await this.settle();
    const rows = await this.fresh(proofs, 'proofs', (p) => p.seq, (p) => p.raw);
    if (rows.length === 0) return;
    const tsv = rows.map((p) => [p.kernel, p.seq, p.checkpointSeq, p.source, p.raw].map(tsvField).join('\t'));
    for (const p of rows) this.counts(p.kernel).proofsAdded++;
    const columns = list((['kernel_key', 'seq', 'checkpoint_seq', 'source', 'raw'] as const).map((c) => col(c)));
    this.launch(this.ch.insert(sql`${table('proofs')} (${columns})`, `${tsv.join('\n')}\n`, { insert_distributed_sync: '1' }));
  }

  finish(): IngestReport {
    this.report.seconds = (performance.now() - this.started) / 1000;
    return this.report;
  }
}

/** The fields of a receipt line; throws Reject with the reason. */
function receiptOf(line: string, kind: 'tool' | 'child', packageKernel: string | undefined, subjects: Map<string, string>): Omit<ReceiptRow, 'checkpointSeq' | 'source' | 'where'> {
  const split = receiptLine(line);
  let receipt: Record<string, unknown> | undefined;
  try {
    receipt = split ? obj(JSON.parse(split.raw)) : undefined;
  } catch {
    // below: say whether the line is not JSON at all or only not in the export's form
  }
  if (!split || !receipt) {
    JSON.parse(line); // not JSON: SyntaxError, reported as such
    throw new Reject('must be {"seq":N,"receipt":{…}} as Chio exports it (seq first, then the receipt object, no spaces)');
  }
  const { raw } = split;
  const seq = BigInt(split.seq);
  if (seq >= 1n << 64n) throw new Reject('seq must be a u64');
  const exact = (key: string) => () => exactAt(raw, [key]);
  const signer = text(receipt, 'kernel_key', 'receipt');
  if (!HEX64.test(signer)) throw new Reject('receipt.kernel_key must be 64 lowercase hex digits');
  const base = {
    kernel: packageKernel ?? signer,
    kind,
    seq,
    id: text(receipt, 'id', 'receipt'),
    signer,
    timestamp: u64Of(receipt, 'timestamp', 'receipt', exact('timestamp')),
    raw,
  };
  if (kind === 'child') return { ...base, capabilityId: '', subjectKey: '', toolServer: '', toolName: '', decision: '', cost: '', currency: '' };
  const capabilityId = text(receipt, 'capability_id', 'receipt');
  const attribution = obj(obj(receipt.metadata)?.attribution);
  const verdict = obj(receipt.decision)?.verdict;
  if (receipt.decision !== undefined && receipt.decision !== null && typeof verdict !== 'string') throw new Reject('receipt.decision.verdict must be a string');
  return {
    ...base,
    capabilityId,
    subjectKey: optText(attribution, 'subject_key') || (subjects.get(capabilityId) ?? ''),
    toolServer: text(receipt, 'tool_server', 'receipt'),
    toolName: text(receipt, 'tool_name', 'receipt'),
    decision: typeof verdict === 'string' ? verdict : 'none',
    cost: costOf(receipt, raw),
    currency: optText(obj(obj(receipt.metadata)?.financial), 'currency'),
  };
}

function checkpointOf(line: string): Omit<CheckpointRow, 'source' | 'where'> {
  const record = obj(JSON.parse(line));
  const body = obj(record?.body);
  if (!record || !body) throw new Reject('a checkpoint must be {"body":{…},"signature":…}');
  const exact = (key: string) => () => exactAt(line, ['body', key]);
  const kernel = text(body, 'kernel_key', 'body');
  if (!HEX64.test(kernel)) throw new Reject('body.kernel_key must be 64 lowercase hex digits');
  return {
    kernel,
    checkpointSeq: u64Of(body, 'checkpoint_seq', 'body', exact('checkpoint_seq')),
    start: u64Of(body, 'batch_start_seq', 'body', exact('batch_start_seq')),
    end: u64Of(body, 'batch_end_seq', 'body', exact('batch_end_seq')),
    treeSize: u64Of(body, 'tree_size', 'body', exact('tree_size')),
    issuedAt: u64Of(body, 'issued_at', 'body', exact('issued_at')),
    raw: line.trimEnd(),
  };
}

function proofOf(line: string): Pick<ProofRow, 'seq' | 'checkpointSeq' | 'raw'> {
  const proof = obj(JSON.parse(line));
  if (!proof) throw new Reject('an inclusion proof must be a JSON object');
  const exact = (key: string) => () => exactAt(line, [key]);
  return {
    seq: u64Of(proof, 'receipt_seq', 'proof', exact('receipt_seq')),
    checkpointSeq: u64Of(proof, 'checkpoint_seq', 'proof', exact('checkpoint_seq')),
    raw: line.trimEnd(),
  };
}
