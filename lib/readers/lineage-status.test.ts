// The DAG's words for a capability link, from the report's lineage verdicts.
import { describe, expect, it } from 'vitest';
import type { CapabilityLineage } from '../sources/lineage';
import type { ReportLineage } from '../verdict/report';
import { lineageVerdicts, linkStatus, linkText } from './lineage-status';

const row = (capabilityId: string, source = 'capability-lineage.ndjson'): CapabilityLineage => ({ capabilityId, parentCapabilityId: null, grants: [], source });
const verdict = (capability_id: string, v: Partial<ReportLineage> = {}): ReportLineage => ({
  capability_id,
  provenance: 'signed_token',
  verdict: 'verified',
  checks: { lineage: 'pass' },
  problems: [],
  file: 'capability-lineage.ndjson',
  line: 1,
  ...v,
});

describe('lineage link status', () => {
  const verdicts = lineageVerdicts([
    verdict('cap-ok'),
    verdict('cap-bad', { verdict: 'failed', checks: { lineage: 'fail' }, problems: ['lineage_signature_invalid', 'lineage_mismatch'] }),
    verdict('cap-twice'),
    verdict('cap-twice', { verdict: 'failed', problems: ['lineage_mismatch'] }),
    verdict('cap-twice', { line: 3 }),
    verdict(`fed-del-${'0'.repeat(64)}`, { provenance: 'synthetic_anchor' }),
    verdict('cap-p256', { verdict: 'unverified', checks: { lineage: 'skipped' } }),
    verdict('cap-store', { file: 's.sqlite3#capability_lineage' }),
  ]);
  const say = (r: CapabilityLineage) => linkText(linkStatus(r, verdicts));

  it('says each kind in plain words', () => {
    expect(say(row('cap-ok'))).toBe('signed and verified');
    expect(say(row('cap-bad'))).toBe('failed: lineage_signature_invalid, lineage_mismatch');
    expect(say(row(`fed-del-${'0'.repeat(64)}`))).toBe('unsigned federation anchor');
    expect(say(row('cap-p256'))).toBe('signature not checked here');
    expect(say(row('cap-store', 's.sqlite3#capability_lineage'))).toBe('signed and verified');
    expect(say(row('cap-legacy', 's.sqlite3#capability_lineage'))).toBe('unsigned context');
    expect(say(row('cap-garbled'))).toBe('could not be read');
  });

  it('a capability with a failed row among several is failed', () => {
    expect(say(row('cap-twice'))).toBe('failed: lineage_mismatch');
  });

  it('a row of another file with the same id has a verdict of its own', () => {
    expect(say(row('cap-ok', 'other/capability-lineage.ndjson'))).toBe('could not be read');
  });
});
