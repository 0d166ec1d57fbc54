// The overview's problems (contract §7) grouped by code, each pointing at what
// it concerns: its receipt's page, its checkpoint on the timeline, or (a line
// that never became a record) the explorer over its file. Pure: links are
// built here as strings, with the explorer's own URL codec.
import { type ValueFilter, explorerUrl } from '../query/explorer-filter';
import { receiptUrl } from '../query/receipt-address';
import { PROBLEM_CODES, PROBLEM_TITLE, type Problem, type ProblemCode, type Severity } from '../verdict/problems';
import type { VerificationReport } from '../verdict/report';
import type { Coverage } from './checkpoint-coverage';

export type ProblemTarget =
  | { kind: 'receipt'; href: string; receiptId: string }
  | { kind: 'checkpoint'; href: string; checkpointSeq: bigint }
  | { kind: 'file'; href: string; file: string }
  | { kind: 'none' };

export interface ProblemGroup {
  code: ProblemCode;
  severity: Severity;
  title: string;
  problems: Problem[];
  /** Distinct receipts of the log this code names (the explorer rows that carry it). */
  receipts: number;
  /** `/receipts?problem=<code>` when some row carries the code. */
  explorerHref?: string;
}

/** The explorer filtered on one value, as a link. */
export function explorerHref(key: ValueFilter, value: string): string {
  return explorerUrl({ values: { [key]: [value] } });
}

/** A receipt's page, at the copy read at `file`:`line` when the problem says where (one id can name several receipts). */
export function receiptHref(id: string, file?: string, line?: number): string {
  return receiptUrl(id, { ...(file !== undefined ? { file } : {}), ...(line !== undefined ? { line } : {}) });
}

/** What one problem concerns, as a link; ids and files are matched against the report, never trusted. */
export class ProblemLinker {
  /** The receipt ids problems name that the log holds, and the files receipts were read from. */
  private readonly receiptIds: Set<string>;
  private readonly receiptFiles: Set<string>;

  constructor(
    report: VerificationReport,
    private readonly coverage: Pick<Coverage, 'anchorFor'>,
  ) {
    // One pass over the receipts, keeping only the ids problems name (a log has a million receipts, and few problems).
    const named = new Set<string>();
    for (const p of report.problems) if (p.receipt_id !== undefined) named.add(p.receipt_id);
    this.receiptIds = new Set();
    this.receiptFiles = new Set();
    let lastFile: string | undefined;
    for (const r of report.receipts) {
      if (named.has(r.id)) this.receiptIds.add(r.id);
      if (r.file !== lastFile) this.receiptFiles.add((lastFile = r.file));
    }
  }

  hasReceipt(id: string): boolean {
    return this.receiptIds.has(id);
  }

  targetOf(p: Problem): ProblemTarget {
    if (p.receipt_id !== undefined && this.receiptIds.has(p.receipt_id))
      return { kind: 'receipt', href: receiptHref(p.receipt_id, p.file, p.line), receiptId: p.receipt_id };
    if (p.checkpoint_seq !== undefined) {
      const anchor = this.coverage.anchorFor(p);
      if (anchor) return { kind: 'checkpoint', href: `#${anchor}`, checkpointSeq: BigInt(p.checkpoint_seq) };
    }
    // A line that never became a receipt: the explorer shows the receipts read from its file.
    if (p.file !== undefined && this.receiptFiles.has(p.file)) return { kind: 'file', href: explorerHref('file', p.file), file: p.file };
    return { kind: 'none' };
  }
}

/** Groups in the contract's order (errors first, as §7 lists them); problems keep the report's order. */
export function groupProblems(report: VerificationReport, linker: ProblemLinker): ProblemGroup[] {
  const byCode = new Map<ProblemCode, Problem[]>();
  for (const p of report.problems) {
    const list = byCode.get(p.code);
    if (list) list.push(p);
    else byCode.set(p.code, [p]);
  }
  const groups: ProblemGroup[] = [];
  for (const code of PROBLEM_CODES) {
    const problems = byCode.get(code);
    if (!problems) continue;
    const ids = new Set<string>();
    for (const p of problems) if (p.receipt_id !== undefined && linker.hasReceipt(p.receipt_id)) ids.add(p.receipt_id);
    groups.push({
      code,
      // Most codes have one severity; duplicate_receipt_id is an error or a warning by case: the worst shows.
      severity: problems.some((p) => p.severity === 'error') ? 'error' : 'warning',
      title: PROBLEM_TITLE[code],
      problems,
      receipts: ids.size,
      ...(ids.size > 0 ? { explorerHref: explorerHref('problem', code) } : {}),
    });
  }
  return groups.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
}
