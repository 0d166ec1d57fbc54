// Receipt families (issue 22): Chio's receipts and other runtimes' (ZeroClaw,
// CodeWhale: other-dialects.md) behind one interface, so the orchestrator
// (lib/verify) reaches a family only through it and imports point down: the
// families depend on this room, never on lib/verify. Every family recognises its
// records by shape (`recognise`). Chio's records are then decoded and checked
// one by one as they stream in (lib/verify/checked-family.ts's `CheckedFamily`,
// declared there because it writes that room's entries; in workers); the
// other families' records are set aside and each family audits its own once
// the whole log is in (`AuditedFamily.audit`: a ZeroClaw reply's claims need
// every tool result of the log), into report receipts, explorer rows, facts
// for the receipt page, and problems. Which families a log is read with is the
// caller's choice (bin/, lib/workers/, lib/dialects/families.ts).
import type { JsonObject } from '../json/value';
import type { Problem } from './problems';
import type { ReceiptView } from './receipt-view';
import type { ReportReceipt } from './report';

export interface ReceiptFamily {
  /** `chio`, `zeroclaw`, `codewhale`. */
  readonly name: string;
  /** Which of the family's record kinds `o` is, by its shape alone; null when it is none of them. */
  recognise(o: JsonObject): string | null;
}

/** A record a family recognised in a log: its kind (the family's own word) and where it sits in the record. */
export interface FamilyRecord {
  kind: string;
  /** The record, or an empty object for text (`text`). */
  value: JsonObject;
  /** A text file's content, for a family that reads text. */
  text?: string;
  /** Field path of `value` within the record, for messages. */
  path: string;
}

/**
 * A record set aside for its family until the whole log is in: its text (JSON that parses back to
 * the same tree, numbers as written, or the text file itself) and where it was.
 */
export interface DialectItem {
  /** The family's name. */
  family: string;
  kind: string;
  text: string;
  path: string;
  file: string;
  line: number;
  order: number;
  space: string;
}

/** What the user supplies: ZeroClaw's HMAC key (tests, debugging), and the diff a CodeWhale review receipt is checked against. */
export interface DialectOptions {
  hmacKey?: Uint8Array;
  diff?: { name: string; fingerprint: string };
}

/** One audited receipt: its report object, its explorer row (`view.order`: its record's order), and labelled facts for its page. */
export interface DialectReceipt {
  report: ReportReceipt;
  view: ReceiptView;
  facts: [string, string][];
}

export interface DialectAudit {
  /** In log order; `view.order` places each among the log's other receipts. */
  receipts: DialectReceipt[];
  problems: Problem[];
}

/** A family whose records are set aside and audited together once the whole log is in. */
export interface AuditedFamily extends ReceiptFamily {
  /**
   * A document that holds several of the family's records (a chat transcript `{messages}`, the
   * JSON `codewhale review --json` prints): its records, or null. Asked of every family before any
   * is asked to `recognise` a record.
   */
  unwrap(o: JsonObject, path: string, depth: number): FamilyRecord[] | null;
  /** The family's records in a text file (`.txt`, `.log`, `.md`), for a family that reads text. */
  readText?(text: string): FamilyRecord[];
  /** Decodes and checks every record set aside for it, with what the user supplied. */
  audit(items: readonly DialectItem[], options: DialectOptions): Promise<DialectAudit>;
}
