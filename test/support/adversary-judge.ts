// Test-only: judging a verifier's report against an adversarial variant (./adversary.ts, issue 7):
// every target's exact verdict and codes, the zone a tamper may leave `unverified`, the codes
// that must appear somewhere and the log's `ok`. `invariant` lists what must never happen: a
// tampered record `verified`, an untampered receipt `failed`.
import type { Variant } from './adversary';

export interface JudgedReport {
  ok: boolean;
  receipts: { id: string; verdict: string; file: string; line: number }[];
  checkpoints: { checkpoint_seq: number | bigint; verdict: string; file: string; line: number }[];
  lineage?: { capability_id: string; verdict: string; file: string; line: number }[];
  problems: { code: string; file?: string; line?: number; receipt_id?: string; checkpoint_seq?: number | bigint }[];
}

export interface Judgement {
  /** Tampered records reported `verified`, or untampered receipts reported `failed`: the invariant. */
  invariant: string[];
  /** Everything else that differs from the expectation (exact verdicts, codes). */
  mismatches: string[];
}

const base = (f: string | undefined) => (f === undefined ? '' : f.split(/[\\/]/).pop()!);

export function judge(v: Variant, report: JudgedReport): Judgement {
  const invariant: string[] = [];
  const mismatches: string[] = [];
  const locOf = (x: { file: string; line: number }) => `${base(x.file)}:${x.line}`;
  const codesAt = (loc: string, id?: string) =>
    new Set(
      report.problems
        .filter((p) => (p.file !== undefined && p.line !== undefined && `${base(p.file)}:${p.line}` === loc) || (id !== undefined && p.receipt_id === id))
        .map((p) => p.code),
    );
  const seen = new Set<string>();
  const entries = [
    ...report.receipts.map((r) => ({ kind: 'receipt', loc: locOf(r), verdict: r.verdict, id: r.id as string | undefined })),
    ...report.checkpoints.map((c) => ({ kind: 'checkpoint', loc: locOf(c), verdict: c.verdict, id: undefined })),
    ...(report.lineage ?? []).map((l) => ({ kind: 'lineage row', loc: locOf(l), verdict: l.verdict, id: undefined })),
  ];
  for (const e of entries) {
    seen.add(e.loc);
    const t = v.targets.get(e.loc);
    if (t) {
      if (e.verdict === 'verified' && t.verdict !== 'verified') invariant.push(`${e.kind} ${e.loc} is tampered but reported verified`);
      if (e.verdict !== t.verdict) mismatches.push(`${e.kind} ${e.loc}: verdict ${e.verdict}, expected ${t.verdict}`);
      const have = codesAt(e.loc, e.id);
      for (const c of t.codes) if (!have.has(c)) mismatches.push(`${e.kind} ${e.loc}: no ${c} (has ${[...have].join(', ') || 'none'})`);
    } else if (e.kind === 'receipt' || e.kind === 'lineage row') {
      if (e.verdict === 'failed') invariant.push(`${e.kind} ${e.loc} is untampered but reported failed`);
      else if (e.verdict !== 'verified' && (v.harmless || !v.zone.has(e.loc))) mismatches.push(`receipt ${e.loc}: ${e.verdict}, expected verified`);
    } else if (e.verdict !== 'verified' && (v.harmless || !v.zone.has(e.loc))) mismatches.push(`checkpoint ${e.loc}: ${e.verdict}, expected verified`);
  }
  for (const [loc, t] of v.targets) {
    if (seen.has(loc)) continue;
    if (t.verdict !== 'absent') mismatches.push(`${loc}: not in the report, expected ${t.verdict}`);
    else {
      const have = codesAt(loc);
      for (const c of t.codes) if (!have.has(c)) mismatches.push(`${loc}: rejected record has no ${c} (has ${[...have].join(', ') || 'none'})`);
    }
  }
  const all = new Set(report.problems.map((p) => p.code));
  for (const c of v.codes) if (!all.has(c)) mismatches.push(`no ${c} anywhere (has ${[...all].join(', ') || 'none'})`);
  const okExpected = v.harmless ? true : v.ok;
  if (okExpected !== undefined && report.ok !== okExpected) mismatches.push(`log ok is ${report.ok}, expected ${okExpected}`);
  return { invariant, mismatches };
}
