// Per-check totals of a report (never a single green tick, contract §1.2): for
// each check, how many passed, failed, and were skipped and why. In contract
// order, for the CLI summary and the page alike; per receipt family when the
// log mixes Chio receipts with ZeroClaw or CodeWhale ones.

export const CHECK_ORDER = [
  'parse',
  'signature',
  'receipt_id',
  'semantics',
  'parameter_hash',
  'content_hash',
  'delivery',
  'inclusion',
  'structure',
  'continuity',
  'chain',
  'signer_trusted',
];

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

/** The report's receipt families: each proves different things, so the summaries count them apart. */
export const RECEIPT_FAMILIES: readonly { name: string; types: readonly string[] }[] = [
  { name: 'Chio', types: ['tool', 'child', 'http'] },
  { name: 'ZeroClaw', types: ['zeroclaw'] },
  { name: 'CodeWhale review', types: ['codewhale-review'] },
  { name: 'CodeWhale turn', types: ['codewhale-turn'] },
];

type Verdict = 'verified' | 'failed' | 'unverified';

export interface FamilyTotals {
  name: string;
  types: readonly string[];
  receipts: number;
  verdicts: Record<Verdict, number>;
  totals: CheckTotal[];
}

/** The families present, each with its verdict counts and per-check totals; null when every receipt is Chio's (one table then). */
export function familyTotals(
  receipts: readonly { type: string; verdict: Verdict; checks: Record<string, string>; details?: Record<string, string> }[],
): FamilyTotals[] | null {
  const members = RECEIPT_FAMILIES.map(() => [] as (typeof receipts)[number][]);
  const ofType = new Map(RECEIPT_FAMILIES.flatMap((f, i) => f.types.map((t) => [t, i] as const)));
  for (const r of receipts) {
    const i = ofType.get(r.type);
    if (i !== undefined) members[i]!.push(r);
  }
  const present = RECEIPT_FAMILIES.flatMap((f, i) => (members[i]!.length > 0 ? [{ f, rs: members[i]! }] : []));
  if (present.every(({ f }) => f.name === 'Chio')) return null;
  return present.map(({ f, rs }) => {
    const verdicts: Record<Verdict, number> = { verified: 0, failed: 0, unverified: 0 };
    for (const r of rs) verdicts[r.verdict]++;
    return { name: f.name, types: f.types, receipts: rs.length, verdicts, totals: checkTotals(rs) };
  });
}
