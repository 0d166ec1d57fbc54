// A receipt bundle's shape: one receipt exactly as its source holds it, with the
// checkpoint that covers it and its inclusion proof. The record host (record-host.ts)
// cuts it out of a loaded log; lib/share encodes it into a link, decodes and verifies it.
export type BundleRole = 'tool' | 'child' | 'http';

export interface ReceiptBundle {
  v: 1;
  role: BundleRole;
  /** The receipt record's text, byte for byte as in its source (a package line keeps its `{"seq","receipt"}` wrapper). */
  receipt: string;
  /** The position the checkpoint covers (decimal), when the record's own wrapper does not say it. */
  logSeq?: string;
  /** The checkpoint record (`{"body","signature"}`) whose batch holds the receipt. */
  checkpoint?: string;
  /** The inclusion proof record (ReceiptInclusionProof) against that checkpoint. */
  proof?: string;
  /** Where it came from, for people (never trusted). */
  origin?: { source: string; file: string; line: number };
}
