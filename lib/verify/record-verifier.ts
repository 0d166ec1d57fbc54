// The per-record half of verification (contract §5): everything a record's own
// bytes decide, with no knowledge of the rest of the log. Generic: intake types
// the record's items; an export bundle's own claims are read here; records of
// the audited families (ZeroClaw, CodeWhale: ../verdict/family.ts) are set
// aside until the whole log is in; every other item is handed to the checked
// family (Chio's, chio-records.ts), reached only through its interface
// (checked-family.ts). Stateless apart from that family's trust store, so it
// runs in any number of Web Workers; LogAssembler does the whole-log half.
// Its output is structured-clone safe: plain objects, bigint, Uint8Array.
import { compactJson } from '../json/pretty';
import type { AuditedFamily } from '../verdict/family';
import { makeProblem } from '../verdict/problems';
import { readBundleClaims } from './bundle-claims';
import type { CheckedFamily } from './checked-family';
import type { Located } from './entries';
import { type LogItem, intakeRecord } from './intake';
import type { RecordOrigin, RecordOutput } from './record-output';

export class RecordVerifier {
  /** `checked`: the family that checks each of its records as it arrives (Chio). `families`: other runtimes' families, whose records are recognised and set aside. */
  constructor(
    private readonly checked: CheckedFamily,
    private readonly families: readonly AuditedFamily[] = [],
  ) {}

  /**
   * Verifies one record into `out`. The returned promises settle the async
   * checks (signatures) on entries already in `out`; never rejects on input.
   */
  verify(text: string, origin: RecordOrigin, order: number, out: RecordOutput): Promise<void>[] {
    const result = intakeRecord(text, origin.role, this.families);
    if (!result.ok) {
      const { issue } = result;
      const line = origin.line + issue.line - 1;
      out.problems.push(makeProblem(issue.code, `${issue.path}: ${issue.message}`, { file: origin.file, line }));
      return [];
    }
    for (const issue of result.issues ?? []) {
      out.problems.push(makeProblem(issue.code, `${issue.path}: ${issue.message}`, { file: origin.file, line: origin.line + issue.line - 1 }));
    }
    const pending: Promise<void>[] = [];
    const { items } = result;
    items.forEach((item, i) => {
      const located = { file: origin.file, line: origin.line, order: order + i };
      if (item.kind === 'bundle') {
        // Its receipts are the `items` right after it (intake.ts collectBundle).
        const from = order + i + 1;
        out.bundles.push(
          readBundleClaims(item.value, { space: origin.space, file: origin.file, line: origin.line, orderFrom: from, orderTo: from + (item.items ?? 0) }),
        );
        return;
      }
      if (item.kind === 'family') {
        setAside(item, origin, located, out);
        return;
      }
      const p = this.checked.check(item, origin, located, out);
      if (p) pending.push(p);
    });
    return pending;
  }
}

/** A record of an audited family, kept for it until the whole log is in. */
function setAside(item: LogItem, origin: RecordOrigin, located: Located, out: RecordOutput): void {
  // Kept as text that parses back to the same tree (numbers as written: ZeroClaw's MAC input depends on `1.0`).
  out.dialect.push({
    file: located.file,
    line: located.line,
    order: located.order,
    family: item.family!,
    kind: item.familyKind!,
    text: item.text ?? compactJson(item.value),
    path: item.path,
    space: origin.space,
  });
}
