// The human-readable report: verdict counts, per-check totals (never one green
// tick), problems with file:line, and the budget table.
import { checkTotals } from '../../lib/verify/check-totals';
import type { VerificationReport } from '../../lib/verify/report';

const MAX_PROBLEMS = 50;

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => '  ' + r.map((cell, c) => (c === r.length - 1 ? cell : pad(cell, widths[c]!))).join('  ').trimEnd());
}

function checkTable(items: { checks: Record<string, string>; details?: Record<string, string> }[]): string[] {
  const rows = checkTotals(items).map((t) => [
    t.name,
    `${t.pass} pass`,
    `${t.fail} fail`,
    [...t.skipped].map(([why, n]) => `${n} skipped (${why})`).join(', '),
  ]);
  return rows.length ? table(rows) : ['  (none)'];
}

const FAMILIES: { name: string; types: string[]; note?: string }[] = [
  { name: 'Chio', types: ['tool', 'child', 'http'] },
  { name: 'ZeroClaw', types: ['zeroclaw'], note: 'HMAC tags, verifiable only with the runtime\'s ephemeral key (--hmac-key)' },
  { name: 'CodeWhale review', types: ['codewhale-review'], note: 'unsigned: integrity against the diff (--diff), not authenticity' },
  { name: 'CodeWhale turn', types: ['codewhale-turn'], note: 'unsigned draft: internal consistency, not authenticity' },
];

export function formatSummary(report: VerificationReport, paths: string[]): string {
  const lines: string[] = [];
  const s = report.summary;
  lines.push(`receipt-audit: ${paths.join(', ')}`);
  lines.push(`Result: ${report.ok ? 'OK, nothing failed' : 'FAILED'}`);
  lines.push('');
  lines.push(`Receipts: ${s.receipts} (verified ${s.verified}, failed ${s.failed}, unverified ${s.unverified})`);
  const families = FAMILIES.map((f) => ({ ...f, receipts: report.receipts.filter((r) => f.types.includes(r.type)) })).filter((f) => f.receipts.length > 0);
  if (families.length === 1 && families[0]!.name === 'Chio') lines.push(...checkTable(report.receipts));
  else {
    // Several runtimes: each its own counts and checks, and what its receipts can prove.
    for (const f of families) {
      const n = (v: string) => f.receipts.filter((r) => r.verdict === v).length;
      lines.push(`  ${f.name}: ${f.receipts.length} (verified ${n('verified')}, failed ${n('failed')}, unverified ${n('unverified')})${f.note ? `: ${f.note}` : ''}`);
      lines.push(...checkTable(f.receipts).map((l) => `  ${l}`));
    }
  }
  const cpFailed = report.checkpoints.filter((c) => c.verdict === 'failed').length;
  lines.push(`Checkpoints: ${s.checkpoints} (verified ${s.checkpoints - cpFailed}, failed ${cpFailed})`);
  if (report.checkpoints.length) lines.push(...checkTable(report.checkpoints));
  for (const p of report.packages) {
    lines.push(`Package ${p.path}: manifest ${p.checks.manifest}${p.details ? ` (${p.details.manifest})` : ''}`);
  }
  lines.push(report.trust.pinned ? 'Trust: kernel keys pinned' : 'Trust: no kernel keys pinned, so signer_trusted is skipped (signatures show self-consistency only)');
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
        b.capability_id, String(b.grant_index), b.currency, b.root_budget_holder, String(b.budget_total), String(b.charged),
        String(b.remaining), String(b.by_settlement.settled), String(b.by_settlement.pending), String(b.by_settlement.failed),
        b.breaks.length ? b.breaks.join(' ') : '-',
      ]);
    }
    lines.push(...table(rows));
    lines.push('  (amounts in minor units of the currency)');
  }
  if (report.finance.excluded.length) lines.push(`  left out (signature did not pass): ${report.finance.excluded.join(', ')}`);
  return lines.join('\n') + '\n';
}
