// ZeroClaw as a receipt family (lib/verdict/family.ts; other-dialects.md §1):
// its records by shape, a tool-call record `{tool_name, args, result, receipt}`
// (a string receipt and no signature: never a Chio receipt), a chat message
// `{role, content}`, a runtime-trace LogEvent `{message, attributes}`, a chat
// transcript `{"messages": [...]}` as one document, and text files; audited by
// audit.ts once the whole log is in.
import { type JsonObject, isJsonObject } from '../../json/value';
import type { AuditedFamily, FamilyRecord } from '../../verdict/family';
import { auditZeroclaw } from './audit';

export type ZeroclawRecordKind = 'zc-call' | 'zc-message' | 'zc-trace' | 'zc-text';

export const zeroclawFamily = {
  name: 'zeroclaw',
  /** A chat transcript as one document, `{"messages": [...]}`: its messages, in order. */
  unwrap(o: JsonObject, path: string, depth: number): FamilyRecord[] | null {
    const messages = o.get('messages');
    if (depth !== 0 || !Array.isArray(messages) || !messages.every((m) => isJsonObject(m) && typeof m.get('role') === 'string')) return null;
    return messages.map((m, i) => ({ kind: 'zc-message', value: m as JsonObject, path: `${path}.messages[${i}]` }));
  },
  recognise(o: JsonObject): ZeroclawRecordKind | null {
    if (typeof o.get('receipt') === 'string' && o.has('tool_name') && !o.has('signature')) return 'zc-call';
    const role = o.get('role');
    if (typeof role === 'string' && (o.has('content') || o.has('tool_calls')) && !o.has('signature')) return 'zc-message';
    if (isJsonObject(o.get('attributes')) && typeof o.get('message') === 'string' && !o.has('signature')) return 'zc-trace';
    return null;
  },
  /** A reply, a transcript or a terminal log: read whole for the receipts it quotes. */
  readText(text: string): FamilyRecord[] {
    return [{ kind: 'zc-text', value: new Map(), text, path: '$' }];
  },
  audit: auditZeroclaw,
} satisfies AuditedFamily;
