// Server side only (Node): `receipt-audit ingest <package|store>… --clickhouse URL` (issue 9).
// Loads the tool receipts, child receipts, checkpoints and inclusion proofs of many kernels'
// evidence packages and SQLite stores into the fleet's Distributed tables (./schema.ts).
//
// - Every record is stored as exported, byte for byte: a package's `{"seq":N,"receipt":R}` line
//   gives R's exact text; a checkpoint or proof line is stored whole. Nothing is re-serialized.
// - Indexed columns are read from the receipt (JSON.parse; a cost beyond 2^53 is read exactly
//   from its digits). The index is for finding receipts only: the browser verifies what it shows.
// - A store is first exported as a package (the same code as /v1/evidence/package), then read.
// - Parsing happens in worker threads (./parse-worker.ts), which also insert; this thread reads
//   the files and decides what goes in.
// - Re-ingesting adds nothing: before each chunk is inserted, the rows of its seq range already
//   in the cluster (or on their way there) are read back; the same record is skipped, a
//   different one at that seq rejected.
// - A bad record is rejected with its file and line (for a store: its table and seq), and
//   everything else is ingested.
// - One ingest at a time per cluster: fleet_seq continues from the cluster's max.
import path from 'node:path';
import { ClickHouse, tsvField } from './clickhouse';
import { schemaProblem } from './schema';
import { col, list, sql, str, table, u64, type Sql } from './sql';
import { ParsePool } from './parse-pool';
import { firstSigner, groupBy, lineChunks, lineCount, lines } from './ingest-lines';
import { type Source, sourceOf } from './ingest-source';
import { type ChunkKeys, type ChunkKind, rejectReason } from './parse-worker';
import { type PackageContext, type ParsedCheckpoint, Reject, checkpointOf, obj } from './records';

export interface KernelCounts {
  toolAdded: number;
  childAdded: number;
  checkpointsAdded: number;
  proofsAdded: number;
  /** Capability-lineage rows and checkpoint consistency records (the `records` table). */
  recordsAdded: number;
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

/** A checkpoint of a package, with where it was read. */
interface CheckpointRow extends ParsedCheckpoint {
  source: string;
  where: string;
}

export class FleetIngest {
  private readonly report: IngestReport = { kernels: new Map(), rejected: [], receiptsRead: 0, seconds: 0 };
  private nextFleetSeq = 0n;
  private readonly started = performance.now();
  private pool: ParsePool | null = null;

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
    if (!c) this.report.kernels.set(kernel, (c = { toolAdded: 0, childAdded: 0, checkpointsAdded: 0, proofsAdded: 0, recordsAdded: 0, alreadyPresent: 0 }));
    return c;
  }

  private reject(where: string, reason: string): void {
    this.report.rejected.push({ where, reason });
  }

  /** Ingests one evidence-package folder or Chio SQLite store. */
  async add(input: string): Promise<void> {
    const source = await sourceOf(input);
    try {
      await this.addPackage(source);
    } finally {
      source.cleanup?.();
    }
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
        if (cp.kernel !== kernel)
          throw new Reject(`signed by kernel ${cp.kernel}, but this package's first checkpoint is signed by ${kernel}: a package is one kernel's log`);
        checkpoints.push({ ...cp, source: src.label, where: src.where('checkpoints.ndjson', n, cp.checkpointSeq) });
      } catch (e) {
        this.rejectError(where, e);
      }
    }
    const batches: PackageContext['batches'] = checkpoints
      .map((c): [bigint, bigint, bigint] => [c.start, c.end, c.checkpointSeq])
      .sort((a, b) => (a[0] < b[0] ? -1 : 1));
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
    const ctx: PackageContext = { ...(kernel !== undefined ? { kernel } : {}), subjects, batches, source: src.label };
    this.pool ??= new ParsePool();
    const pkg = this.pool.package(ctx);
    await this.ingestFile(src, 'receipts.ndjson', 'tool', pkg);
    await this.ingestFile(src, 'child-receipts.ndjson', 'child', pkg);
    await this.insertCheckpoints(checkpoints);
    await this.ingestFile(src, 'inclusion-proofs.ndjson', 'proof', pkg);
    // The signed lineage and the v2 consistency records of the kernel's log, as exported.
    const owner = kernel ?? (await firstSigner(path.join(src.dir, 'receipts.ndjson')));
    if (owner !== undefined) {
      await this.insertRecords(src, owner, 'lineage', 'capability-lineage.ndjson', (o) => (typeof o.capability_id === 'string' ? o.capability_id : null));
      await this.insertRecords(src, owner, 'consistency', 'checkpoint-consistency-proofs.ndjson', (o) =>
        typeof o.from_checkpoint_seq === 'number' && typeof o.to_checkpoint_seq === 'number' ? `${o.from_checkpoint_seq}:${o.to_checkpoint_seq}` : null,
      );
    }
  }

  /**
   * One file of records of a kernel (lineage rows, consistency records) into `records`, each line
   * as written, keyed by `keyOf`: a record already there is counted present, another record under
   * the same key is rejected, a line without its key is rejected with its file and line.
   */
  private async insertRecords(
    src: Source,
    kernel: string,
    kind: 'lineage' | 'consistency',
    file: string,
    keyOf: (o: Record<string, unknown>) => string | null,
  ): Promise<void> {
    const items: { key: string; raw: string; where: string }[] = [];
    for await (const [line, n] of lines(path.join(src.dir, file))) {
      let key: string | null = null;
      try {
        const o = obj(JSON.parse(line));
        key = o ? keyOf(o) : null;
      } catch {
        key = null;
      }
      if (key === null)
        this.reject(
          src.where(file, n),
          `not a ${kind === 'lineage' ? 'capability-lineage row (no capability_id)' : 'consistency record (no from/to checkpoint_seq)'}`,
        );
      else items.push({ key, raw: line, where: src.where(file, n) });
    }
    const fresh: typeof items = [];
    const freshRaw = new Map<string, string>();
    for (let i = 0; i < items.length; i += 1000) {
      const chunk = items.slice(i, i + 1000);
      const there = new Map(
        (
          await this.ch.rows<{ k: string; v: string }>(
            sql`SELECT ${col('record_key')} AS k, ${col('raw')} AS v FROM ${table('records')} WHERE kernel_key = ${str(kernel)} AND record_kind = ${str(kind)} AND record_key IN (${list(chunk.map((it) => str(it.key)))})`,
          )
        ).map((r) => [r.k, r.v]),
      );
      for (const it of chunk) {
        const seen = there.get(it.key) ?? freshRaw.get(it.key);
        if (seen === undefined) {
          fresh.push(it);
          freshRaw.set(it.key, it.raw);
        } else if (seen === it.raw) this.counts(kernel).alreadyPresent++;
        else this.reject(it.where, `kernel ${kernel.slice(0, 12)}… already has a different ${kind} record ${it.key} in the fleet`);
      }
    }
    if (fresh.length === 0) return;
    this.counts(kernel).recordsAdded += fresh.length;
    const tsv = fresh.map((it) => [kernel, kind, it.key, src.label, it.raw].map(tsvField).join('\t'));
    const columns = list((['kernel_key', 'record_kind', 'record_key', 'source', 'raw'] as const).map((c) => col(c)));
    await this.ch.insert(sql`${table('records')} (${columns})`, tsv, { insert_distributed_sync: '1' });
  }

  /**
   * One receipts or proofs file: whole lines, as bytes, go to the workers round-robin (they parse
   * them, and keep the rows) and their keys come back in order, a few chunks in flight. Each chunk
   * is checked against the cluster and inserted before the next is checked, so a record given
   * twice in one run is added once. Fleet positions are handed out per chunk line, so a rejected
   * or skipped line leaves a gap, which paging does not mind.
   */
  private async ingestFile(src: Source, file: string, kind: ChunkKind, pkg: number): Promise<void> {
    const pool = this.pool!;
    const inFlight: Promise<ChunkKeys>[] = [];
    const inserts: Promise<unknown>[] = [];
    let before = 0;
    const take = async (keys: ChunkKeys) => {
      if (kind !== 'proof') this.report.receiptsRead += keys.kernels.length + keys.rejects.length;
      for (const r of keys.rejects) this.reject(src.where(file, before + r.n, r.seq !== undefined ? BigInt(r.seq) : undefined), r.reason);
      const where = (i: number) => src.where(file, before + keys.ns[i]!, BigInt(keys.seqs[i]!));
      const { skip, accepted } = await this.alreadyThere(keys, kind, where);
      // Inserted in the background, a few at a time; until an insert is done its rows are
      // checked against here, since the cluster may not show them yet.
      this.unconfirmed.add(accepted);
      const insert = pool.insert(keys.id, this.ch.url.href, skip).finally(() => this.unconfirmed.delete(accepted));
      insert.catch(() => {}); // awaited below
      inserts.push(insert);
      while (inserts.length > 2) await inserts.shift();
      const skipped = new Set(skip);
      keys.kernels.forEach((k, i) => {
        if (skipped.has(i)) return;
        const c = this.counts(k);
        if (kind === 'tool') c.toolAdded++;
        else if (kind === 'child') c.childAdded++;
        else c.proofsAdded++;
      });
      before += keys.lines;
    };
    for await (const bytes of lineChunks(path.join(src.dir, file))) {
      const base = this.nextFleetSeq;
      if (kind !== 'proof') this.nextFleetSeq += BigInt(lineCount(bytes));
      inFlight.push(pool.parse(pkg, kind, bytes, base));
      while (inFlight.length > pool.size * 2) await take(await inFlight.shift()!);
    }
    while (inFlight.length) await take(await inFlight.shift()!);
    while (inserts.length) await inserts.shift();
  }

  /**
   * The rows of a chunk not to insert (see `sortOut`), and the rows it does insert, for the
   * checks of the chunks after it while its insert is under way.
   */
  private async alreadyThere(keys: ChunkKeys, kind: ChunkKind, where: (i: number) => string): Promise<{ skip: number[]; accepted: Map<string, string> }> {
    const skip: number[] = [];
    const accepted = new Map<string, string>();
    for (const [kernel, rows] of groupBy(
      keys.kernels.map((_, i) => i),
      (i) => keys.kernels[i]!,
    )) {
      const items = rows.map((i) => ({ seq: BigInt(keys.seqs[i]!), identity: keys.identities[i]!, where: () => where(i) }));
      const sorted = await this.sortOut(kind, kernel, items);
      sorted.keep.forEach((keep, n) => keep || skip.push(rows[n]!));
      for (const [key, identity] of sorted.accepted) accepted.set(key, identity);
    }
    return { skip, accepted };
  }

  /**
   * Which of one kernel's records to insert: not those already in the cluster or on their way
   * there (same identity: counted as present), nor those whose seq the kernel already holds with
   * something else (rejected). Returns a flag per record, and the accepted ones by key.
   */
  private async sortOut(
    kind: ChunkKind | 'checkpoint',
    kernel: string,
    items: { seq: bigint; identity: string; where: () => string }[],
  ): Promise<{ keep: boolean[]; accepted: Map<string, string> }> {
    const tableName = kind === 'checkpoint' ? 'checkpoints' : kind === 'proof' ? 'proofs' : 'receipts';
    const present = await this.present(
      tableName,
      kernel,
      items.map((it) => it.seq),
      kind === 'tool' || kind === 'child' ? kind : undefined,
    );
    const accepted = new Map<string, string>();
    const keep = items.map((it) => {
      const key = `${kind}\u0000${kernel}\u0000${it.seq}`;
      const there = present.get(it.seq) ?? this.unconfirmedIdentity(key) ?? accepted.get(key);
      if (there === undefined) {
        accepted.set(key, it.identity);
        return true;
      }
      if (there === it.identity) this.counts(kernel).alreadyPresent++;
      else
        this.reject(
          it.where(),
          `kernel ${kernel.slice(0, 12)}… already has a different ${kind === 'tool' || kind === 'child' ? 'receipt' : kind} at seq ${it.seq} in the fleet`,
        );
      return false;
    });
    return { keep, accepted };
  }

  /** Rows of inserts still under way (kind, kernel, seq → identity). */
  private readonly unconfirmed = new Set<Map<string, string>>();

  private unconfirmedIdentity(key: string): string | undefined {
    for (const rows of this.unconfirmed) {
      const identity = rows.get(key);
      if (identity !== undefined) return identity;
    }
    return undefined;
  }

  private rejectError(where: string, e: unknown): void {
    const reason = rejectReason(e);
    if (reason === null) throw e;
    this.reject(where, reason);
  }

  /** Records of `kernel` (of `kind`, for receipts) already in the cluster within the seqs' range: seq → identity. */
  private async present(
    tableName: 'receipts' | 'checkpoints' | 'proofs',
    kernel: string,
    seqs: bigint[],
    kind?: 'tool' | 'child',
  ): Promise<Map<bigint, string>> {
    const lo = seqs.reduce((a, b) => (a < b ? a : b));
    const hi = seqs.reduce((a, b) => (a > b ? a : b));
    const seqCol = tableName === 'checkpoints' ? col('checkpoint_seq') : col('seq');
    // A proof is known by its MD5 (the worker hashes the line it read), so proofs are not read back whole.
    const what: Sql = tableName === 'receipts' ? col('receipt_id') : tableName === 'proofs' ? sql`lower(hex(MD5(raw)))` : col('raw');
    const kindClause = kind ? sql` AND kind = ${str(kind)}` : sql``;
    const rows = await this.ch.rows<{ s: string; v: string }>(
      sql`SELECT ${seqCol} AS s, ${what} AS v FROM ${table(tableName)} WHERE kernel_key = ${str(kernel)}${kindClause} AND ${seqCol} BETWEEN ${u64(lo)} AND ${u64(hi)}`,
    );
    return new Map(rows.map((r) => [BigInt(r.s), r.v]));
  }

  private async insertCheckpoints(checkpoints: CheckpointRow[]): Promise<void> {
    const rows: CheckpointRow[] = [];
    for (const [kernel, group] of groupBy(checkpoints, (c) => c.kernel)) {
      const { keep } = await this.sortOut(
        'checkpoint',
        kernel,
        group.map((c) => ({ seq: c.checkpointSeq, identity: c.raw, where: () => c.where })),
      );
      rows.push(...group.filter((_, n) => keep[n]));
    }
    if (rows.length === 0) return;
    const tsv = rows.map((c) => [c.kernel, c.checkpointSeq, c.start, c.end, c.treeSize, c.issuedAt, c.source, c.raw].map(tsvField).join('\t'));
    for (const c of rows) this.counts(c.kernel).checkpointsAdded++;
    const columns = list(
      (['kernel_key', 'checkpoint_seq', 'batch_start_seq', 'batch_end_seq', 'tree_size', 'issued_at', 'source', 'raw'] as const).map((c) => col(c)),
    );
    await this.ch.insert(sql`${table('checkpoints')} (${columns})`, tsv, { insert_distributed_sync: '1' });
  }

  async finish(): Promise<IngestReport> {
    await this.pool?.close();
    this.pool = null;
    this.report.seconds = (performance.now() - this.started) / 1000;
    return this.report;
  }
}
