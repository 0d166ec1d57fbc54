// The `scope` check of a package or export bundle (contract part 2 §5.3,
// chio-format-v2.md §16.8.2, upstream `verify_query_scope`): every tool receipt
// lies inside the query (tenant, capability, time window, kernel, agent subject
// through lineage), child receipts lie in its time window and are absent when
// the query omits them, and `childReceiptScope` is the value the query implies.
// Upstream stops at the first violation; here each receipt outside the query is
// its own problem with its file and line, the first MAX_SCOPE_PROBLEMS of a
// package, then one counted summary (a million-receipt package must not make a
// million problems). Pure.
import { type CheckResult, fail, pass, skipped } from '../verdict/check';
import type { ReceiptEntry } from './entries';
import { type ChildReceiptScope, CHILD_RECEIPT_SCOPES, type PackageQuery, childReceiptScopeOf, clip, tenantInScope } from './package-query';
import { type Problem, makeProblem } from '../verdict/problems';

export const MAX_SCOPE_PROBLEMS = 100;

/** What a package or bundle says it selected. Plain data (a bundle's crosses a worker boundary). */
export interface ScopeClaim {
  /** Where the query was read, for messages: `query.json`, `manifest.json`, or the bundle's file. */
  file: string;
  line?: number;
  /** The query, or why it cannot be read (then nothing can be held to it). */
  query: PackageQuery | { error: string };
  /** `childReceiptScope` as written; absent in packages that predate it. */
  childReceiptScope?: string;
}

/**
 * The capability lineage subject (`subject_key`) of a capability, from verified lineage rows:
 * the signed-lineage check (contract part 2 §5.3.1, lineage-link.ts verifiedSubjects) supplies
 * it. Without it, a query with `agentSubject` leaves `scope` skipped, never passed.
 */
export type SubjectOf = (capabilityId: string) => string | undefined;

export interface ScopeOutcome {
  result: CheckResult;
  problems: Problem[];
}

/** `receipts`: the package's receipts in log order (tool and child are held to the query; others are not). */
export function evaluateScope(claim: ScopeClaim, receipts: readonly ReceiptEntry[], subjectOf?: SubjectOf): ScopeOutcome {
  const where = { file: claim.file, ...(claim.line !== undefined ? { line: claim.line } : {}) };
  if ('error' in claim.query) {
    const result = fail('scope_query_unreadable', claim.query.error);
    return { result, problems: [makeProblem('query_scope_violation', result.detail!, where)] };
  }
  const q = claim.query;
  const problems: Problem[] = [];
  const findings: string[] = [];
  const implied = childReceiptScopeOf(q);
  let childScope: ChildReceiptScope = implied;
  if (claim.childReceiptScope !== undefined) {
    if (claim.childReceiptScope !== implied) {
      const msg = `childReceiptScope says ${clip(JSON.stringify(claim.childReceiptScope))}, but the query implies ${implied}`;
      findings.push(msg);
      problems.push(makeProblem('query_scope_violation', msg, where));
    }
    if ((CHILD_RECEIPT_SCOPES as readonly string[]).includes(claim.childReceiptScope)) childScope = claim.childReceiptScope as ChildReceiptScope;
  }

  const held = new ReceiptsHeld(q, childScope, subjectOf);
  let outside = 0;
  let firstLine = 0;
  let lastLine = 0;
  let file = '';
  for (const r of receipts) {
    const reasons = held.reasons(r);
    if (reasons === null || reasons.length === 0) continue;
    outside++;
    if (outside <= MAX_SCOPE_PROBLEMS) {
      problems.push(
        makeProblem('query_scope_violation', `${r.id} lies outside the package query: ${reasons.join('; ')}`, { receipt_id: r.id, file: r.file, line: r.line }),
      );
    } else {
      if (outside === MAX_SCOPE_PROBLEMS + 1) [file, firstLine] = [r.file, r.line];
      lastLine = r.line;
    }
  }
  if (outside > MAX_SCOPE_PROBLEMS) {
    const more = outside - MAX_SCOPE_PROBLEMS;
    problems.push(
      makeProblem('query_scope_violation', `… and ${more} more receipts lie outside the package query (from ${file}:${firstLine} to line ${lastLine})`, {
        file,
        line: firstLine,
      }),
    );
  }
  if (outside > 0) findings.push(`${outside} of ${held.tool + held.child} receipts lie outside the query (${held.tally()})`);
  if (findings.length) return { result: fail('scope_violated', findings), problems };
  if (held.agentUnchecked > 0) return { result: skipped('agent_subject_unchecked', held.agentUnchecked), problems };
  return { result: pass('scope_held', held.tool, held.child, describe(q), claim.childReceiptScope), problems };
}

/** The query's filters in words, for a passing check's detail. */
function describe(q: PackageQuery): string {
  const parts: string[] = [];
  const tenant = tenantInScope(q);
  if (tenant !== undefined) parts.push(`tenant ${clip(tenant)}`);
  if (q.capabilityId !== undefined) parts.push(`capability ${clip(q.capabilityId)}`);
  if (q.agentSubject !== undefined) parts.push(`agent ${clip(q.agentSubject)}`);
  if (q.since !== undefined) parts.push(`since ${q.since}`);
  if (q.until !== undefined) parts.push(`until ${q.until}`);
  if (q.kernelKey !== undefined) parts.push(`kernel ${clip(q.kernelKey)}`);
  return parts.length ? parts.join(', ') : 'no filters';
}

/** Holds each receipt to the query and tallies why receipts fall outside it. */
class ReceiptsHeld {
  tool = 0;
  child = 0;
  agentUnchecked = 0;
  private readonly counts = new Map<string, number>();
  private readonly tenant: string | undefined;

  constructor(
    private readonly q: PackageQuery,
    private readonly childScope: ChildReceiptScope,
    private readonly subjectOf: SubjectOf | undefined,
  ) {
    this.tenant = tenantInScope(q);
  }

  /** Why `r` lies outside the query (empty: inside), or null for a receipt the query does not select (HTTP). */
  reasons(r: ReceiptEntry): string[] | null {
    if (r.type === 'tool') {
      this.tool++;
      return this.toolReasons(r);
    }
    if (r.type !== 'child') return null;
    this.child++;
    const out = this.window(r);
    if (this.childScope === 'omitted_no_join_path')
      this.note(out, 'omitted children', `a child receipt, which the query's childReceiptScope omitted_no_join_path leaves out`);
    return out;
  }

  private toolReasons(r: ReceiptEntry): string[] {
    const out: string[] = [];
    const q = this.q;
    if (this.tenant !== undefined && r.tenantId !== this.tenant) {
      this.note(
        out,
        'tenant',
        r.tenantId === undefined
          ? `no tenant_id, but the query is scoped to tenant ${clip(this.tenant)}`
          : `tenant_id ${clip(r.tenantId)} is not the query's tenant ${clip(this.tenant)}`,
      );
    }
    if (q.capabilityId !== undefined && r.capabilityId !== q.capabilityId)
      this.note(out, 'capability', `capability_id ${clip(r.capabilityId ?? '')} is not the query's ${clip(q.capabilityId)}`);
    out.push(...this.window(r));
    if (q.kernelKey !== undefined && r.kernelKey !== q.kernelKey)
      this.note(out, 'kernel', `signed by ${clip(r.kernelKey ?? 'an unreadable kernel_key')}, not the query's kernel ${clip(q.kernelKey)}`);
    if (q.agentSubject !== undefined) {
      if (!this.subjectOf) this.agentUnchecked++;
      else {
        const subject = this.subjectOf(r.capabilityId ?? '');
        if (subject === undefined) this.note(out, 'agent', `capability ${clip(r.capabilityId ?? '')} has no verified lineage to show its agent`);
        else if (subject !== q.agentSubject)
          this.note(out, 'agent', `its capability's subject ${clip(subject)} is not the query's agent ${clip(q.agentSubject)}`);
      }
    }
    return out;
  }

  private window(r: ReceiptEntry): string[] {
    const out: string[] = [];
    if (this.q.since !== undefined && r.timestamp < this.q.since) this.note(out, 'time', `timestamp ${r.timestamp} is before since ${this.q.since}`);
    if (this.q.until !== undefined && r.timestamp > this.q.until) this.note(out, 'time', `timestamp ${r.timestamp} is after until ${this.q.until}`);
    return out;
  }

  private note(out: string[], kind: string, reason: string): void {
    out.push(reason);
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }

  tally(): string {
    return [...this.counts].map(([kind, n]) => `${kind}: ${n}`).join(', ');
  }
}
