// Chio as a receipt family (lib/verdict/family.ts): which of Chio's records a
// JSON object is, by its shape alone (chio-format.md §4–§9): a checkpoint, an
// inclusion proof, a child or HTTP receipt, else a tool receipt when it has a
// tool receipt's fields. Records named by their `schema` (transparency records)
// are told apart before this, by lib/verify/intake.ts. Chio's records are then
// decoded and checked one by one as they arrive (lib/verify/chio-records.ts).
import type { JsonObject } from '../json/value';
import type { ReceiptFamily } from '../verdict/family';
import { looksLikeCheckpoint, looksLikeInclusionProof } from './checkpoint';
import { looksLikeChildReceipt } from './child-receipt';
import { looksLikeHttpReceipt } from './http-receipt';

export type ChioRecordKind = 'checkpoint' | 'proof' | 'child' | 'http' | 'tool';

export const chioFamily = {
  name: 'chio',
  recognise(o: JsonObject): ChioRecordKind | null {
    if (looksLikeCheckpoint(o)) return 'checkpoint';
    if (looksLikeInclusionProof(o)) return 'proof';
    if (looksLikeChildReceipt(o)) return 'child';
    if (looksLikeHttpReceipt(o)) return 'http';
    if (o.has('tool_name') || o.has('action') || o.has('capability_id')) return 'tool';
    return null;
  },
} satisfies ReceiptFamily;
