// Shrinks receipt entries as the assembler takes them, for logs of a million
// receipts. In the browser, entries reach the log worker as structured clones:
// every string arrives as its own copy (a million "receipts.ndjson", "tool",
// "skipped", "no keys pinned", kernel keys), every check result as its own
// object, and every 32-byte leaf hash as a Uint8Array with an ArrayBuffer and a
// backing store of its own (or a view of its batch's buffer, see pack-hashes.ts).
// Here equal strings and equal check results become one shared value, and the
// hashes kept move into large buffers of the compactor's own. Only the
// representation changes: every field keeps its value, so every decision and
// the report stay the same. Check results are never changed in place (the
// verifiers assign new ones), so sharing them is safe.
import { type CheckResult, resultKey } from '../verdict/check';
import type { CheckpointEntry, LineageEntry, ProofEntry, ReceiptEntry } from './entries';
import { mapProofHashes } from './pack-hashes';
import { own } from './record-output';

/** Leaf hashes per shared buffer (each 32 bytes). */
const SLAB_HASHES = 32_768;
const HASH = 32;

export class EntryCompactor {
  private readonly strings = new Map<string, string>();
  private readonly results = new Map<string, CheckResult>();
  private slab = new Uint8Array(0);
  private used = 0;

  /** Rewrites `r`'s repeated values in place. */
  receipt(r: ReceiptEntry): void {
    r.file = this.string(r.file);
    r.space = this.string(r.space);
    r.type = this.string(r.type) as ReceiptEntry['type'];
    if (r.kernelKey !== null) r.kernelKey = this.string(r.kernelKey);
    if (r.decision !== undefined) r.decision = this.string(r.decision);
    if (r.capabilityId !== undefined) r.capabilityId = this.string(r.capabilityId);
    if (r.attributionSubjectKey !== undefined) r.attributionSubjectKey = this.string(r.attributionSubjectKey);
    if (r.attributionIssuerKey !== undefined) r.attributionIssuerKey = this.string(r.attributionIssuerKey);
    if (r.tenantId !== undefined) r.tenantId = this.string(r.tenantId);
    if (r.semantics !== undefined) r.semantics = this.string(r.semantics);
    const checks = r.checks as Record<string, CheckResult | undefined>;
    for (const name in checks) {
      const c = checks[name];
      if (c !== undefined) checks[name] = this.result(c);
    }
    r.leafHashes = this.hash(r.leafHashes);
    // A wrapped tool receipt's seq is also its log position: one bigint, not two equal ones.
    if (r.logSeq !== undefined && r.logSeq === r.seq) r.logSeq = r.seq;
  }

  /** A lineage row: its repeated strings (file, source, keys) shared. */
  lineage(l: LineageEntry): void {
    l.file = this.string(l.file);
    l.space = this.string(l.space);
    l.provenance = this.string(l.provenance) as LineageEntry['provenance'];
    l.subjectKey = this.string(l.subjectKey);
    l.issuerKey = this.string(l.issuerKey);
  }

  /**
   * Its roots in memory of the compactor's own (the batch's buffer of hashes is freed after
   * intake), its repeated strings and check results shared: a log may hold 650,000 checkpoints.
   */
  checkpoint(c: CheckpointEntry): void {
    const { cp } = c;
    c.file = this.string(c.file);
    c.space = this.string(c.space);
    cp.schema = this.string(cp.schema);
    cp.kernelKey = this.string(cp.kernelKey);
    if (cp.kernelKeyNormalized !== null) cp.kernelKeyNormalized = this.string(cp.kernelKeyNormalized);
    if (cp.merkleRoot) cp.merkleRoot = this.hash(cp.merkleRoot);
    if (cp.chainRoot) cp.chainRoot = this.hash(cp.chainRoot);
    const checks = c.checks as Record<string, CheckResult | undefined>;
    for (const name in checks) {
      const r = checks[name];
      if (r !== undefined) checks[name] = this.result(r);
    }
  }

  /** A proof kept for later (its receipt not read yet): its hashes in memory of their own. */
  proof(p: ProofEntry): void {
    mapProofHashes(p, (h) => this.hash(h));
  }

  /** The one copy of `s` kept, unsliced (in the CLI, values parsed from a record are slices of its text). */
  private string(s: string): string {
    const known = this.strings.get(s);
    if (known !== undefined) return known;
    const kept = own(s);
    this.strings.set(kept, kept);
    return kept;
  }

  private result(c: CheckResult): CheckResult {
    const key = resultKey(c);
    const known = this.results.get(key);
    if (known !== undefined) return known;
    // A code always comes with its text (check.ts).
    const shared: CheckResult = Object.freeze(c.code === undefined ? { status: c.status } : { status: c.status, code: c.code, detail: this.string(c.detail!) });
    this.results.set(key, shared);
    return shared;
  }

  /** A copy of hashes (a 32-byte hash, a receipt's 64-byte pair) in the current shared buffer; anything longer on its own. */
  private hash(h: Uint8Array): Uint8Array {
    if (h.length > 2 * HASH) return h.slice();
    if (this.used + h.length > this.slab.length) {
      this.slab = new Uint8Array(SLAB_HASHES * HASH);
      this.used = 0;
    }
    const copy = this.slab.subarray(this.used, this.used + h.length);
    copy.set(h);
    this.used += h.length;
    return copy;
  }
}
