// The human-readable report: verdict counts, per-check totals (never one green
// tick), what envelopes claimed (as claims), problems with file:line, and the
// budget table.
import { type CheckTotal, checkTotals, familyTotals } from '../../lib/verify/check-totals';
import { claimsText, envelopeLabel, isContradicted } from '../../lib/verify/envelope-claims';
import { PACKAGE_CHECK_ORDER, type VerificationReport } from '../../lib/verdict/report';

const MAX_PROBLEMS = 50;
const MAX_CONTRADICTED = 20;

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map(
    (r) =>
      '  ' +
      r
        .map((cell, c) => (c === r.length - 1 ? cell : pad(cell, widths[c]!)))
        .join('  ')
        .trimEnd(),
  );
}

function checkTable(totals: CheckTotal[]): string[] {
  const rows = totals.map((t) => [t.name, `${t.pass} pass`, `${t.fail} fail`, [...t.skipped].map(([why, n]) => `${n} skipped (${why})`).join(', ')]);
  return rows.length ? table(rows) : ['  (none)'];
}

/** What each receipt family (RECEIPT_FAMILIES) can prove, as the command line says it. */
const FAMILY_NOTES: Record<string, string> = {
  ZeroClaw: "HMAC tags, verifiable only with the runtime's ephemeral key (--hmac-key)",
  'CodeWhale review': 'unsigned: integrity against the diff (--diff), not authenticity',
  'CodeWhale turn': 'unsigned draft: internal consistency, not authenticity',
};

const MAX_LINEAGE_FAILURES = 20;

/** The capability-lineage rows (contract part 2 §5.3.1), when the log has any: counts, then each failed row and its codes. */
function lineageLines(report: VerificationReport): string[] {
  const rows = report.lineage;
  if (!rows || rows.length === 0) return [];
  const anchors = rows.filter((l) => l.verdict === 'verified' && l.provenance === 'synthetic_anchor').length;
  const signed = rows.filter((l) => l.verdict === 'verified').length - anchors;
  const unverified = rows.filter((l) => l.verdict === 'unverified').length;
  const failed = rows.filter((l) => l.verdict === 'failed');
  const parts = [`${signed} signed and verified`];
  if (anchors > 0) parts.push(`${anchors} unsigned federation anchor${anchors === 1 ? '' : 's'}`);
  if (unverified > 0) parts.push(`${unverified} not checked here`);
  parts.push(`${failed.length} failed`);
  const lines = [`Capability lineage: ${rows.length} row${rows.length === 1 ? '' : 's'} (${parts.join(', ')})`];
  for (const l of failed.slice(0, MAX_LINEAGE_FAILURES)) lines.push(`  failed  ${l.capability_id}  ${l.file}:${l.line}  ${l.problems.join(', ')}`);
  if (failed.length > MAX_LINEAGE_FAILURES) lines.push(`  … and ${failed.length - MAX_LINEAGE_FAILURES} more failed rows (use --json for all)`);
  return lines;
}

/**
 * Receipts that arrived in envelopes, by wrapper and claims: what the wrapper says is its claim,
 * never a verdict (contract part 2 §1 principle 6). A success claim on a failed receipt is named.
 */
function envelopeLines(report: VerificationReport): string[] {
  const enveloped = report.receipts.filter((r) => r.envelope);
  if (enveloped.length === 0) return [];
  const groups = new Map<string, number>();
  for (const r of enveloped) {
    const claims = claimsText(r.envelope!);
    const key = `${envelopeLabel(r.envelope!)}${claims ? `: ${claims}` : ''}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const lines = [`Envelopes: ${enveloped.length} receipt(s) arrived in a wrapper; its words are claimed by the wrapper, not verified (the verdicts above are)`];
  for (const [key, n] of groups) lines.push(`  ${n} in ${key}`);
  const contradicted = enveloped.filter(isContradicted);
  for (const r of contradicted.slice(0, MAX_CONTRADICTED)) {
    lines.push(`  contradicted by the verdict: ${r.id} (${r.file}:${r.line}) is failed, though its wrapper claimed ${claimsText(r.envelope!)}`);
  }
  if (contradicted.length > MAX_CONTRADICTED) lines.push(`  … and ${contradicted.length - MAX_CONTRADICTED} more contradicted claims (use --json for all)`);
  return lines;
}

/** A package's checks, one line each, in contract order, each with its detail. */
function packageLines(p: VerificationReport['packages'][number]): string[] {
  const rows = PACKAGE_CHECK_ORDER.flatMap((name) => {
    const status = p.checks[name];
    if (status === undefined) return [];
    const detail = p.details?.[name];
    return [[name, status, detail ? `(${detail})` : '']];
  });
  return [`Package ${p.path}:`, ...table(rows)];
}

export function formatSummary(report: VerificationReport, paths: string[]): string {
  const lines: string[] = [];
  const s = report.summary;
  lines.push(`receipt-audit: ${paths.join(', ')}`);
  const empty = s.receipts === 0 && s.checkpoints === 0 && !s.unreadable;
  lines.push(`Result: ${!report.ok ? 'FAILED' : empty ? 'no receipts found, nothing was verified' : 'OK, nothing failed'}`);
  lines.push('');
  lines.push(`Receipts: ${s.receipts} (verified ${s.verified}, failed ${s.failed}, unverified ${s.unverified})`);
  if (s.unreadable)
    lines.push(
      `Unreadable: ${s.unreadable} ${s.unreadable === 1 ? 'record' : 'records'} could not be read and ${s.unreadable === 1 ? 'is' : 'are'} in no count above (see the parse_error and duplicate_key problems)`,
    );
  const families = familyTotals(report.receipts);
  if (families === null) lines.push(...checkTable(checkTotals(report.receipts)));
  else {
    // Several runtimes: each its own counts and checks, and what its receipts can prove.
    for (const f of families) {
      const note = FAMILY_NOTES[f.name];
      lines.push(
        `  ${f.name}: ${f.receipts} (verified ${f.verdicts.verified}, failed ${f.verdicts.failed}, unverified ${f.verdicts.unverified})${note ? `: ${note}` : ''}`,
      );
      lines.push(...checkTable(f.totals).map((l) => `  ${l}`));
    }
  }
  lines.push(...envelopeLines(report));
  const cpFailed = report.checkpoints.filter((c) => c.verdict === 'failed').length;
  lines.push(`Checkpoints: ${s.checkpoints} (verified ${s.checkpoints - cpFailed}, failed ${cpFailed})`);
  if (report.checkpoints.length) lines.push(...checkTable(checkTotals(report.checkpoints)));
  lines.push(...lineageLines(report));
  for (const p of report.packages) lines.push(...packageLines(p));
  lines.push(
    report.trust.pinned
      ? 'Trust: kernel keys pinned'
      : 'Trust: no kernel key pinned, so no receipt is verified: signatures show the log is intact, not who signed it (pin with --trust-key)',
  );
  for (const k of report.keys) lines.push(`  signing key ${k.key}: ${k.receipts} receipts, ${k.checkpoints} checkpoints`);
  lines.push('');
  const errors = report.problems.filter((p) => p.severity === 'error').length;
  lines.push(`Problems: ${report.problems.length} (${errors} errors, ${report.problems.length - errors} warnings)`);
  for (const p of report.problems.slice(0, MAX_PROBLEMS)) {
    const where = p.file ? `${p.file}${p.line !== undefined ? `:${p.line}` : ''}` : '-';
    lines.push(`  ${pad(p.severity, 7)} ${pad(p.code, 28)} ${where}  ${p.message}`);
  }
  if (report.problems.length > MAX_PROBLEMS) lines.push(`  … and ${report.problems.length - MAX_PROBLEMS} more (use --json for all)`);
  lines.push('');
  const budgets = report.finance.budgets;
  lines.push(`Budgets: ${budgets.length} (capability, grant) group(s), from receipts whose signature passed`);
  if (budgets.length) {
    const rows = [['capability', 'grant', 'currency', 'holder', 'total', 'charged', 'remaining', 'settled', 'pending', 'failed', 'breaks']];
    for (const b of budgets) {
      rows.push([
        b.capability_id,
        String(b.grant_index),
        b.currency,
        b.root_budget_holder,
        String(b.budget_total),
        String(b.charged),
        String(b.remaining),
        String(b.by_settlement.settled),
        String(b.by_settlement.pending),
        String(b.by_settlement.failed),
        b.breaks.length ? b.breaks.join(' ') : '-',
      ]);
    }
    lines.push(...table(rows));
    lines.push('  (amounts in minor units of the currency)');
  }
  if (report.finance.excluded.length) lines.push(`  left out (signature did not pass): ${report.finance.excluded.join(', ')}`);
  return lines.join('\n') + '\n';
}
