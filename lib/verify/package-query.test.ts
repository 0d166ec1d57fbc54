// The package query rules of chio-format-v2.md §16.8.2: reading a query, the
// read-boundary rules, the tenant in scope and the child-receipt scope it implies.
import { describe, expect, it } from 'vitest';
import { tree } from '../../test/support/forge';
import { type PackageQuery, childReceiptScopeOf, disclosureNoticeError, parsePackageQuery, readBoundaryRuleError, tenantInScope } from './package-query';

const q = (v: unknown): PackageQuery => {
  const r = parsePackageQuery(tree(v));
  if (!r.ok) throw new Error(r.error);
  return r.query;
};

describe('parsePackageQuery', () => {
  it('reads every field; an explicit null is absent (as serde reads Option); unknown keys are ignored', () => {
    expect(q({ capabilityId: 'c', agentSubject: null, since: 5, until: 9, tenant: 't', kernelKey: 'k', extra: [1] })).toEqual({
      capabilityId: 'c',
      since: 5n,
      until: 9n,
      tenant: 't',
      kernelKey: 'k',
    });
    expect(q({ readBoundary: { kind: 'tenant_scoped', tenant: 'a' } }).readBoundary).toEqual({ kind: 'tenant_scoped', tenant: 'a' });
    expect(q({ readBoundary: null })).toEqual({});
  });

  it('a wrong type is an error naming the field; a malformed boundary is kept as the reason', () => {
    expect(parsePackageQuery(tree({ since: -1 }))).toEqual({ ok: false, error: 'query.since is not an unsigned 64-bit integer' });
    expect(parsePackageQuery(tree({ since: 1.5 }))).toEqual({ ok: false, error: 'query.since is not an unsigned 64-bit integer' });
    expect(parsePackageQuery(tree({ tenant: 7 }))).toEqual({ ok: false, error: 'query.tenant is number, not a string' });
    expect(parsePackageQuery(tree([]))).toEqual({ ok: false, error: 'the query is array, not an object' });
    expect(q({ readBoundary: 'admin_all' }).readBoundaryError).toBe('readBoundary is string, not an object');
    expect(q({ readBoundary: { kind: 'tenant_scoped' } }).readBoundaryError).toBe('readBoundary tenant_scoped has no tenant string (missing)');
    expect(q({ readBoundary: {} }).readBoundaryError).toBe('readBoundary has no kind');
  });
});

describe('read boundary rules and the tenant in scope', () => {
  it('tenant_scoped: non-empty tenant, query.tenant equal to it', () => {
    expect(readBoundaryRuleError(q({ readBoundary: { kind: 'tenant_scoped', tenant: 'a' }, tenant: 'a' }))).toBeNull();
    expect(readBoundaryRuleError(q({ readBoundary: { kind: 'tenant_scoped', tenant: '' } }))).toBe('readBoundary tenant_scoped has an empty tenant');
    expect(readBoundaryRuleError(q({ readBoundary: { kind: 'tenant_scoped', tenant: 'a' }, tenant: 'b' }))).toBe(
      'query.tenant "b" differs from readBoundary tenant "a"',
    );
    expect(tenantInScope(q({ readBoundary: { kind: 'tenant_scoped', tenant: 'a' } }))).toBe('a');
  });

  it('admin_all: a tenant filter must be non-empty, and then applies (trimmed, as upstream)', () => {
    expect(readBoundaryRuleError(q({ readBoundary: { kind: 'admin_all' }, tenant: '  ' }))).toBe('readBoundary admin_all with an empty query.tenant filter');
    expect(tenantInScope(q({ readBoundary: { kind: 'admin_all' }, tenant: ' acme ' }))).toBe('acme');
    expect(tenantInScope(q({ readBoundary: { kind: 'admin_all' } }))).toBeUndefined();
  });
});

describe('childReceiptScopeOf (§16.8.2)', () => {
  const cases: [unknown, string][] = [
    [{}, 'full_query_window'],
    [{ since: 1, until: 2 }, 'full_query_window'],
    [{ kernelKey: 'ab' }, 'full_query_window'],
    [{ capabilityId: 'c' }, 'omitted_no_join_path'],
    [{ agentSubject: 's' }, 'omitted_no_join_path'],
    [{ capabilityId: 'c', since: 1 }, 'time_window_context_only'],
    [{ agentSubject: 's', until: 1 }, 'time_window_context_only'],
    [{ tenant: 't' }, 'omitted_no_join_path'],
    [{ tenant: 't', capabilityId: 'c', since: 1 }, 'omitted_no_join_path'],
    [{ readBoundary: { kind: 'tenant_scoped', tenant: 't' }, since: 1 }, 'omitted_no_join_path'],
  ];
  it.each(cases)('%j → %s', (query, scope) => expect(childReceiptScopeOf(q(query))).toBe(scope));
});

describe('disclosureNoticeError', () => {
  it('required exactly for tenant_scoped; admin_all and a query without a boundary carry none', () => {
    expect(disclosureNoticeError(q({ readBoundary: { kind: 'admin_all' } }), undefined)).toBeNull();
    expect(disclosureNoticeError(null, undefined)).toBeNull();
    expect(disclosureNoticeError(q({}), tree({}))).toMatch(/carries a disclosureNotice, but its query is not tenant_scoped/);
    expect(disclosureNoticeError(q({ readBoundary: { kind: 'tenant_scoped', tenant: 't' } }), undefined)).toMatch(/has no disclosureNotice/);
  });

  it('an extra field is a difference (compared as RFC 8785 bytes)', async () => {
    const { TENANT_SCOPED_DISCLOSURE_NOTICE } = await import('./package-query');
    const tenant = q({ readBoundary: { kind: 'tenant_scoped', tenant: 't' } });
    expect(disclosureNoticeError(tenant, tree(TENANT_SCOPED_DISCLOSURE_NOTICE))).toBeNull();
    expect(disclosureNoticeError(tenant, tree({ ...TENANT_SCOPED_DISCLOSURE_NOTICE, note: 'x' }))).toMatch(/\(unknown field note\)$/);
  });
});
