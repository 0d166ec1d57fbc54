// Server side: writes the evidence of a store as an evidence package folder
// (`chio evidence export`, chio-format.md §11.1) or streams it as the
// `POST /v1/evidence/export` bundle (§11.2). Both come from StoreEvidence,
// so a package and a bundle of the same query hold the same bytes.
import { type Hash, createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { type EvidenceQuery, exportedQuery } from '../../lib/query/evidence-query';
import type { CheckpointRow } from '../../lib/sources/sqlite-store';
import { checkpointRecordText } from '../../lib/sources/store';
import { logIdFor } from '../../lib/chio/consistency-proof';
import type { StoreDb } from './db';
import { type ChildScope, StoreEvidence } from './evidence';

export interface ExportCounts {
  toolReceipts: number;
  childReceipts: number;
  checkpoints: number;
  capabilityLineage: number;
  inclusionProofs: number;
  uncheckpointedReceipts: number;
}

/** Walks the query's tool receipts once, pairing each with its proof when its batch is checkpointed. */
function* receiptsWithProofs(ev: StoreEvidence): Generator<{ seq: number; receiptId: string; rawJson: string; proof: string | null; checkpoint?: CheckpointRow }> {
  let batch: { cp: CheckpointRow; leaves: (Uint8Array | null)[] } | undefined;
  for (const r of ev.toolReceipts()) {
    const cp = ev.checkpointFor(r.seq);
    if (!cp) {
      yield { ...r, proof: null };
      continue;
    }
    if (batch?.cp !== cp) batch = { cp, leaves: ev.batchLeaves(cp) };
    const proof = ev.proofJson(cp, r.seq, batch.leaves);
    yield proof ? { ...r, proof, checkpoint: cp } : { ...r, proof: null };
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

const README = (c: ExportCounts, scope: ChildScope, note?: string) => `Chio evidence export

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
${note ? `\n${note}\n` : ''}`;

/**
 * Writes the package for `query` into `outDir` (replaced atomically: written
 * beside it, then renamed). `exportedAt` in Unix seconds.
 */
export function writeEvidencePackage(db: StoreDb, dbFile: string, outDir: string, query: EvidenceQuery, exportedAt: number): ExportCounts {
  const ev = new StoreEvidence(db, query);
  const tmp = `${outDir}.partial-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const opened = new Map<string, LineFile>();
  const file = (name: string) => {
    const f = new LineFile(path.join(tmp, name));
    opened.set(name, f);
    return f;
  };

  const receipts = file('receipts.ndjson');
  const proofs = file('inclusion-proofs.ndjson');
  const touched = new Map<number, CheckpointRow>();
  let unproven = 0;
  for (const r of receiptsWithProofs(ev)) {
    receipts.line(`{"seq":${r.seq},"receipt":${r.rawJson}}`);
    if (r.proof && r.checkpoint) {
      proofs.line(r.proof);
      touched.set(r.checkpoint.checkpointSeq, r.checkpoint);
    } else unproven++;
  }
  receipts.close();
  proofs.close();

  const children = file('child-receipts.ndjson');
  for (const c of ev.childReceipts()) children.line(`{"seq":${c.seq},"receipt":${c.rawJson}}`);
  children.close();

  const cps = [...touched.values()].sort((a, b) => a.checkpointSeq - b.checkpointSeq);
  const checkpoints = file('checkpoints.ndjson');
  for (const c of cps) checkpoints.line(checkpointRecordText(c));
  checkpoints.close();
  const t = ev.transparency(cps.map((c) => c.checkpointSeq));
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

  const counts: ExportCounts = {
    toolReceipts: receipts.lines,
    childReceipts: children.lines,
    checkpoints: cps.length,
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
  write('README.txt', README(counts, ev.plan.childScope, ev.plan.note));

  const listed = ['query.json', 'receipts.ndjson', 'child-receipts.ndjson', 'checkpoints.ndjson', 'inclusion-proofs.ndjson', ...records.slice(0, 4).map(([n]) => n), 'capability-lineage.ndjson', 'retention.json', 'README.txt'];
  const files = listed.map((name) => {
    const f = opened.get(name)!;
    return { path: name, sha256: f.sha256, bytes: f.bytes };
  });
  const logIds = [...new Set(cps.map((c) => logIdFor(c.kernelKey)))];
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
    files,
  };
  write('manifest.json', JSON.stringify(manifest, null, 2));
  rmSync(outDir, { recursive: true, force: true });
  renameSync(tmp, outDir);
  return counts;
}

/**
 * The `POST /v1/evidence/export` response body, in chunks: `{bundle:{…}, transparency:{…}}`.
 * Receipts are walked twice (once for the receipts, once for the proofs) so nothing is held.
 */
export function* exportBundleChunks(db: StoreDb, dbFile: string, query: EvidenceQuery): Generator<string> {
  const ev = new StoreEvidence(db, query);
  const list = function* <T>(items: Iterable<T>, text: (x: T) => string): Generator<string> {
    let first = true;
    let buf: string[] = [];
    for (const x of items) {
      buf.push(first ? text(x) : `,${text(x)}`);
      first = false;
      if (buf.length >= 500) {
        yield buf.join('');
        buf = [];
      }
    }
    if (buf.length) yield buf.join('');
  };
  yield `{"bundle":{"query":${JSON.stringify(exportedQuery(query))},"toolReceipts":[`;
  yield* list(ev.toolReceipts(), (r) => `{"seq":${r.seq},"receipt":${r.rawJson}}`);
  yield `],"childReceipts":[`;
  yield* list(ev.childReceipts(), (c) => `{"seq":${c.seq},"receipt":${c.rawJson}}`);
  yield `],"childReceiptScope":${JSON.stringify(ev.plan.childScope)}`;
  const touched = new Map<number, CheckpointRow>();
  const unproven: { seq: number; receiptId: string }[] = [];
  const proofs = function* (): Generator<string> {
    for (const r of receiptsWithProofs(ev)) {
      if (r.proof && r.checkpoint) {
        touched.set(r.checkpoint.checkpointSeq, r.checkpoint);
        yield r.proof;
      } else unproven.push({ seq: r.seq, receiptId: r.receiptId });
    }
  };
  yield `,"inclusionProofs":[`;
  yield* list(proofs(), (p) => p);
  const cps = [...touched.values()].sort((a, b) => a.checkpointSeq - b.checkpointSeq);
  yield `],"checkpoints":[${cps.map((c) => checkpointRecordText(c)).join(',')}]`;
  yield `,"capabilityLineage":[${ev.lineage(ev.capabilityIds()).join(',')}]`;
  yield `,"uncheckpointedReceipts":${JSON.stringify(unproven)}`;
  yield `,"retention":${JSON.stringify({ liveDbSizeBytes: statSync(dbFile).size })}}`;
  const t = ev.transparency(cps.map((c) => c.checkpointSeq));
  yield `,"transparency":{"publications":[${t.publications.join(',')}],"witnesses":[${t.witnesses.join(',')}],"consistency_proofs":[${t.consistency.join(',')}],"equivocations":[]}}`;
}
