// CodeWhale as a receipt family (lib/verdict/family.ts; other-dialects.md §2):
// its records by shape, a review receipt (`diff_fingerprint`, or `mode`
// pre_push_review), the JSON `codewhale review --json` prints (the receipt it
// wrote rides in `receipt`), and a draft turn receipt (`schema_id`
// codewhale.…); audited by audit.ts.
import { type JsonObject, isJsonObject } from '../../json/value';
import type { AuditedFamily, FamilyRecord } from '../../verdict/family';
import { auditCodewhale } from './audit';

export type CodewhaleRecordKind = 'cw-review' | 'cw-turn';

export const codewhaleFamily = {
  name: 'codewhale',
  /** `codewhale review --json`: the receipt it wrote. */
  unwrap(o: JsonObject, path: string): FamilyRecord[] | null {
    const written = o.get('receipt');
    return o.get('mode') === 'review' && isJsonObject(written) ? [{ kind: 'cw-review', value: written, path: `${path}.receipt` }] : null;
  },
  recognise(o: JsonObject): CodewhaleRecordKind | null {
    if (o.has('diff_fingerprint') || o.get('mode') === 'pre_push_review') return 'cw-review';
    const schemaId = o.get('schema_id');
    return typeof schemaId === 'string' && schemaId.startsWith('codewhale.') ? 'cw-turn' : null;
  },
  audit: auditCodewhale,
} satisfies AuditedFamily;
