// Per-check totals of a report (never a single green tick, contract §1.2): for
// each check, how many passed, failed, and were skipped and why. In contract
// order, for the CLI summary and the page alike.

export const CHECK_ORDER = ['parse', 'signature', 'receipt_id', 'semantics', 'parameter_hash', 'inclusion', 'structure', 'continuity', 'signer_trusted'];

export interface CheckTotal {
  name: string;
  pass: number;
  fail: number;
  /** Skip reason → count. */
  skipped: Map<string, number>;
}

export function checkTotals(items: readonly { checks: Record<string, string>; details?: Record<string, string> }[]): CheckTotal[] {
  const totals = new Map<string, CheckTotal>();
  for (const it of items) {
    for (const [name, status] of Object.entries(it.checks)) {
      let t = totals.get(name);
      if (!t) totals.set(name, (t = { name, pass: 0, fail: 0, skipped: new Map() }));
      if (status === 'pass') t.pass++;
      else if (status === 'fail') t.fail++;
      else {
        const why = it.details?.[name] ?? 'no reason given';
        t.skipped.set(why, (t.skipped.get(why) ?? 0) + 1);
      }
    }
  }
  const rank = (n: string) => (CHECK_ORDER.includes(n) ? CHECK_ORDER.indexOf(n) : CHECK_ORDER.length);
  return [...totals.values()].sort((a, b) => rank(a.name) - rank(b.name));
}
