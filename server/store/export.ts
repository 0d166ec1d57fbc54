// Server side: writes the evidence of a store as an evidence package folder
// (`chio evidence export`, chio-format.md §11.1) or builds the
// `POST /v1/evidence/export` bundle (§11.2). Both come from StoreEvidence,
// so a package and a bundle of the same query hold the same bytes.
//
// Both are async and hand the event loop back every SLICE_MS (Yielder): a first export of a
// million receipts takes minutes and must not hold up the requests that arrive meanwhile
// (issue 20). Rows the server cannot export are listed as problems (../stored-row.ts): the package's
// export-problems.ndjson, the bundle's `exportProblems`; everything else still goes out.
import { type Hash, createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { logIdFor } from '../../lib/chio/consistency-proof';
import { type EvidenceQuery, exportedQuery } from '../../lib/query/evidence-query';
import { MAX_RECORD_BYTES } from '../../lib/sources/records';
import type { StoreDb } from './db';
import { StoreEvidence } from './evidence';
import type { Batch, ChildScope } from './export-plan';
import { type RowProblem, rowProblemJson } from '../stored-row';

export interface ExportCounts {
  toolReceipts: number;
  childReceipts: number;
  checkpoints: number;
  capabilityLineage: number;
  inclusionProofs: number;
  uncheckpointedReceipts: number;
}

/** How long an export runs before it hands the event loop back (ms). */
export const SLICE_MS = 10;

/** Hands the event loop back once SLICE_MS have passed since it last did. */
export class Yielder {
  private last = performance.now();
  /** Times the export gave way (tests and benchmarks read it). */
  yields = 0;
  async maybe(): Promise<void> {
    if (performance.now() - this.last < SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.yields++;
    this.last = performance.now();
  }
}

/** What the walk over the query's receipts gives: each line in the order it is written, and the problems. */
interface Walk {
  receipt(seq: number, receiptId: string, text: string, proof: string | null, checkpointSeq: number | null): void;
  child(seq: number, text: string): void;
  problem(p: RowProblem): void;
}

/**
 * Walks the query's tool receipts (pairing each with its proof when its batch reproduces its
 * checkpoint's root), then its child receipts. Each batch is read and checked once.
 */
async function walkReceipts(ev: StoreEvidence, out: Walk, y: Yielder): Promise<void> {
  let batch: Batch | undefined;
  for (const r of ev.toolReceipts()) {
    await y.maybe();
    if ('problem' in r) {
      out.problem(r.problem);
      continue;
    }
    const cp = ev.checkpointFor(r.seq);
    if (cp && batch?.cp !== cp) batch = ev.batch(cp);
    // The batch, read first, checked this row too; toolReceipts() then took its result.
    if (!r.row.ok) {
      out.problem(r.row.problem);
      continue;
    }
    const proof = cp ? (batch!.proofs?.get(r.seq) ?? null) : null;
    out.receipt(r.seq, r.receiptId, r.row.text, proof, proof ? cp!.checkpointSeq : null);
  }
  for (const c of ev.childReceipts()) {
    await y.maybe();
    if (c.row.ok) out.child(c.seq, c.row.text);
    else out.problem(c.row.problem);
  }
}

/** Buffered line writer over a file descriptor; hashes and counts the bytes it writes, for the manifest. */
class LineFile {
  private readonly fd: number;
  private readonly hash: Hash = createHash('sha256');
  private buf: string[] = [];
  private size = 0;
  lines = 0;
  bytes = 0;
  constructor(file: string) {
    this.fd = openSync(file, 'w');
  }
  line(text: string): void {
    this.buf.push(text, '\n');
    this.size += text.length + 1;
    this.lines++;
    if (this.size > 1 << 20) this.flush();
  }
  flush(): void {
    if (this.buf.length) {
      const chunk = Buffer.from(this.buf.join(''), 'utf8');
      this.hash.update(chunk);
      this.bytes += chunk.length;
      writeSync(this.fd, chunk);
    }
    this.buf = [];
    this.size = 0;
  }
  /** SHA-256 (hex) of the whole file, once closed. */
  sha256 = '';
  close(): void {
    this.flush();
    closeSync(this.fd);
    this.sha256 = this.hash.digest('hex');
  }
}

const CHILD_SCOPE_TEXT: Record<ChildScope, string> = {
  full_query_window: 'the full query window.',
  time_window_context_only: "included only as time-window context; the query's capability and agent filters do not apply to them.",
  omitted_no_join_path: 'omitted, because the export was capability/agent/tenant scoped without a truthful child-receipt join path.',
};

const README = (c: ExportCounts, scope: ChildScope, problems: number, note?: string) => `Chio evidence export

This directory is an evidence package assembled by Receipt Audit from a Chio SQLite
receipt store, in the layout \`chio evidence export\` writes. It contains signed receipts,
checkpoints, inclusion proofs, capability lineage, and retention metadata for offline review.
Verify it with: npx receipt-audit verify <this folder> --trust-key <kernel key>

Tool receipts: ${c.toolReceipts}
Child receipts: ${c.childReceipts}
Checkpoints: ${c.checkpoints}
Inclusion proofs: ${c.inclusionProofs}
Uncheckpointed receipts: ${c.uncheckpointedReceipts}

Child receipts: ${CHILD_SCOPE_TEXT[scope]}
${note ? `\n${note}\n` : ''}${
  problems > 0
    ? `\nRows not exported: ${problems}. The store holds rows that cannot be exported as they are (not UTF-8, not one\nJSON object, too large); export-problems.ndjson names each by table and seq.\n`
    : ''
}`;

/**
 * Writes the package for `query` into `outDir` (replaced atomically: written beside it, then
 * renamed). `exportedAt` in Unix seconds. `db` should be a connection of the export's own: the
 * walk keeps statements open across the event-loop turns it gives away.
 */
export async function writeEvidencePackage(
  db: StoreDb,
  dbFile: string,
  outDir: string,
  query: EvidenceQuery,
  exportedAt: number,
  y = new Yielder(),
): Promise<ExportCounts> {
  const ev = new StoreEvidence(db, query);
  const tmp = `${outDir}.partial-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    return await writeInto(ev, dbFile, tmp, outDir, query, exportedAt, y);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

async function writeInto(
  ev: StoreEvidence,
  dbFile: string,
  tmp: string,
  outDir: string,
  query: EvidenceQuery,
  exportedAt: number,
  y: Yielder,
): Promise<ExportCounts> {
  const opened = new Map<string, LineFile>();
  const file = (name: string) => {
    const f = new LineFile(path.join(tmp, name));
    opened.set(name, f);
    return f;
  };

  const receipts = file('receipts.ndjson');
  const proofs = file('inclusion-proofs.ndjson');
  const children = file('child-receipts.ndjson');
  const problems: RowProblem[] = [...ev.checkpointProblems];
  let unproven = 0;
  await walkReceipts(
    ev,
    {
      receipt(seq, _id, text, proof) {
        receipts.line(`{"seq":${seq},"receipt":${text}}`);
        if (proof) proofs.line(proof);
        else unproven++;
      },
      child: (seq, text) => children.line(`{"seq":${seq},"receipt":${text}}`),
      problem: (p) => problems.push(p),
    },
    y,
  );
  receipts.close();
  proofs.close();
  children.close();

  // Every checkpoint the store holds (contract part 2 §12), whatever became of its receipts.
  const checkpoints = file('checkpoints.ndjson');
  for (const c of ev.checkpoints) checkpoints.line(c.text);
  checkpoints.close();
  const t = (await ev.transparency(
    ev.checkpoints.map((c) => c.row.checkpointSeq),
    () => y.maybe(),
  ))!;
  const records: [string, string[]][] = [
    ['checkpoint-publications.ndjson', t.publications],
    ['checkpoint-witnesses.ndjson', t.witnesses],
    ['checkpoint-consistency-proofs.ndjson', t.consistency],
    ['checkpoint-equivocations.ndjson', []],
    ['capability-lineage.ndjson', ev.lineage(ev.capabilityIds())],
  ];
  for (const [name, lines] of records) {
    const f = file(name);
    for (const l of lines) f.line(l);
    f.close();
  }
  const lineageCount = records[4]![1].length;
  // Listed only when there is something to list, so an honest store's package is the same as before.
  if (problems.length > 0) {
    const f = file('export-problems.ndjson');
    for (const p of problems) f.line(rowProblemJson(p));
    f.close();
  }

  const counts: ExportCounts = {
    toolReceipts: receipts.lines,
    childReceipts: children.lines,
    checkpoints: checkpoints.lines,
    capabilityLineage: lineageCount,
    inclusionProofs: proofs.lines,
    uncheckpointedReceipts: unproven,
  };
  const write = (name: string, text: string) => {
    const f = file(name);
    f.line(text.replace(/\n$/, ''));
    f.close();
  };
  const stated = exportedQuery(query);
  write('query.json', JSON.stringify(stated, null, 2));
  write('retention.json', JSON.stringify({ liveDbSizeBytes: statSync(dbFile).size }, null, 2));
  write('README.txt', README(counts, ev.plan.childScope, problems.length, ev.plan.note));

  const listed = [
    'query.json',
    'receipts.ndjson',
    'child-receipts.ndjson',
    'checkpoints.ndjson',
    'inclusion-proofs.ndjson',
    ...records.slice(0, 4).map(([n]) => n),
    'capability-lineage.ndjson',
    'retention.json',
    'README.txt',
    ...(problems.length > 0 ? ['export-problems.ndjson'] : []),
  ];
  const files = listed.map((name) => {
    const f = opened.get(name)!;
    return { path: name, sha256: f.sha256, bytes: f.bytes };
  });
  const logIds = [...new Set(ev.checkpoints.map((c) => logIdFor(c.row.kernelKey)))];
  const manifest = {
    schema: 'chio.evidence_export_manifest.v1',
    exportedAt,
    query: stated,
    counts,
    proofCoverage: { checkpointedReceipts: counts.inclusionProofs, uncheckpointedReceipts: counts.uncheckpointedReceipts },
    childReceiptScope: ev.plan.childScope,
    claimBoundary: {
      schema: 'chio.evidence_transparency_claims.v1',
      publicationState: 'transparency_preview',
      audit: {
        checkpointLogs: logIds,
        signedCheckpoints: counts.checkpoints,
        checkpointPublications: t.publications.length,
        checkpointWitnesses: t.witnesses.length,
        checkpointConsistencyProofs: t.consistency.length,
        inclusionProofs: counts.inclusionProofs,
        capabilityLineageRecords: lineageCount,
      },
    },
    ...(problems.length > 0 ? { exportProblems: problems.length } : {}),
    files,
  };
  write('manifest.json', JSON.stringify(manifest, null, 2));
  rmSync(outDir, { recursive: true, force: true });
  renameSync(tmp, outDir);
  return counts;
}

/**
 * The largest `POST /v1/evidence/export` body: 16 MiB, the largest record the verifier reads
 * (lib/sources/records.ts MAX_RECORD_BYTES). A bundle is one JSON document, so a larger one could
 * not be verified whole: the request is refused with a clear error (narrow the query, or download
 * the package, whose files are read line by line), never cut short.
 */
export const MAX_BUNDLE_BYTES = MAX_RECORD_BYTES;

export type BundleResult = { ok: true; body: string; unproven: number; problems: number } | { ok: false; tooLarge: { bytes: number; receipts: number } };

/** A JSON list built from pieces, counting its UTF-8 bytes as it grows. */
class JsonList {
  private readonly items: string[] = [];
  bytes = 2;
  push(text: string): void {
    this.bytes += Buffer.byteLength(text) + (this.items.length ? 1 : 0);
    this.items.push(text);
  }
  get length(): number {
    return this.items.length;
  }
  toString(): string {
    return `[${this.items.join(',')}]`;
  }
}

/**
 * The `POST /v1/evidence/export` response body, `{bundle:{…}, transparency:{…}}`, built in
 * memory up to MAX_BUNDLE_BYTES (the walk stops as soon as it is over, so an oversized query
 * costs at most that much work).
 */
export async function buildExportBundle(
  db: StoreDb,
  dbFile: string,
  query: EvidenceQuery,
  y = new Yielder(),
  maxBytes = MAX_BUNDLE_BYTES,
): Promise<BundleResult> {
  const ev = new StoreEvidence(db, query);
  const tools = new JsonList();
  const children = new JsonList();
  const proofs = new JsonList();
  const unproven = new JsonList();
  const problems = new JsonList();
  for (const p of ev.checkpointProblems) problems.push(rowProblemJson(p));
  const checkpoints = new JsonList();
  for (const c of ev.checkpoints) checkpoints.push(c.text);
  const size = () => tools.bytes + children.bytes + proofs.bytes + unproven.bytes + problems.bytes + checkpoints.bytes;
  const tooLarge = (): BundleResult => ({ ok: false, tooLarge: { bytes: size(), receipts: tools.length + children.length } });
  // A store with thousands of checkpoints is over the cap before any receipt (every checkpoint goes with every bundle).
  if (size() > maxBytes) return tooLarge();
  class TooLarge {}
  try {
    await walkReceipts(
      ev,
      {
        receipt(seq, receiptId, text, proof) {
          tools.push(`{"seq":${seq},"receipt":${text}}`);
          if (proof) proofs.push(proof);
          else unproven.push(JSON.stringify({ seq, receiptId }));
          if (size() > maxBytes) throw new TooLarge();
        },
        child(seq, text) {
          children.push(`{"seq":${seq},"receipt":${text}}`);
          if (size() > maxBytes) throw new TooLarge();
        },
        problem: (p) => problems.push(rowProblemJson(p)),
      },
      y,
    );
  } catch (e) {
    if (e instanceof TooLarge) return tooLarge();
    throw e;
  }
  const t = await ev.transparency(
    ev.checkpoints.map((c) => c.row.checkpointSeq),
    () => y.maybe(),
    maxBytes - size(),
  );
  if (!t) return tooLarge();
  const lineage = ev.lineage(ev.capabilityIds());
  const body =
    `{"bundle":{"query":${JSON.stringify(exportedQuery(query))},"toolReceipts":${tools},"childReceipts":${children}` +
    `,"childReceiptScope":${JSON.stringify(ev.plan.childScope)},"inclusionProofs":${proofs},"checkpoints":${checkpoints}` +
    `,"capabilityLineage":[${lineage.join(',')}],"uncheckpointedReceipts":${unproven}` +
    `,"retention":${JSON.stringify({ liveDbSizeBytes: statSync(dbFile).size })}${problems.length ? `,"exportProblems":${problems}` : ''}}` +
    `,"transparency":{"publications":[${t.publications.join(',')}],"witnesses":[${t.witnesses.join(',')}],"consistency_proofs":[${t.consistency.join(',')}],"equivocations":[]}}`;
  const bytes = Buffer.byteLength(body);
  if (bytes > maxBytes) return { ok: false, tooLarge: { bytes, receipts: tools.length + children.length } };
  return { ok: true, body, unproven: unproven.length, problems: problems.length };
}
