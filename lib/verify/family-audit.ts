// Other runtimes' receipts once the whole log is in (lib/verdict/family.ts):
// each family the log is read with audits the records set aside for it, and
// their receipts join the log in order. Receipts found in one record share its
// order, so they are spread over [order, order + 1), which no other item of the
// log uses. The orchestrator reaches the families only through this interface.
import type { AuditedFamily, DialectAudit, DialectItem, DialectOptions } from '../verdict/family';

export async function auditFamilies(families: readonly AuditedFamily[], items: readonly DialectItem[], options: DialectOptions): Promise<DialectAudit> {
  const out: DialectAudit = { receipts: [], problems: [] };
  for (const family of families) {
    const own = items.filter((item) => item.family === family.name);
    if (own.length === 0) continue;
    const audit = await family.audit(own, options);
    // One at a time, not `push(...list)`: a log can hold more receipts than a call takes arguments.
    for (const r of audit.receipts) out.receipts.push(r);
    for (const p of audit.problems) out.problems.push(p);
  }
  const rows = out.receipts.sort((a, b) => a.view.order - b.view.order);
  for (let i = 0; i < rows.length; ) {
    const base = rows[i]!.view.order;
    let j = i;
    while (j < rows.length && rows[j]!.view.order === base) j++;
    for (let k = i; k < j; k++) rows[k]!.view.order = base + (k - i) / (j - i);
    i = j;
  }
  return out;
}
