// CodeWhale review receipts: every synthesized fixture against its current diff
// reproduces the expected `--check-receipt` outcome (lib/testdata/codewhale,
// copied unchanged from ../shared/vectors), and the rules keep CodeWhale's order.
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../json/parse';
import { readTestdataText } from '../../../test/support/testdata';
import { type ReviewReceipt, checkReviewReceipt, diffFingerprint, parseReviewReceipt } from './review';

interface Expectation {
  receipt_file: string;
  current_diff: string;
  current_diff_fingerprint: string;
  expected_check: { passed: boolean; status: string; reason: string; risk_level: string; unresolved: boolean };
}

const expectations = JSON.parse(readTestdataText('codewhale/synthesized/check-expectations.json')) as Expectation[];
const utf8 = (s: string) => new TextEncoder().encode(s);

function receipt(file: string): ReviewReceipt {
  const parsed = parseJson(readTestdataText(`codewhale/synthesized/${file}`));
  if (!parsed.ok) throw new Error(parsed.issue.message);
  const r = parseReviewReceipt(parsed.value);
  if (!r.ok) throw new Error(r.reason);
  return r.receipt;
}

describe('CodeWhale --check-receipt on the fixtures', () => {
  it.each(expectations.map((e) => [e.receipt_file, e] as const))('%s', (file, e) => {
    const fingerprint = diffFingerprint(utf8(e.current_diff));
    expect(fingerprint).toBe(e.current_diff_fingerprint);
    const check = checkReviewReceipt(receipt(file), fingerprint);
    expect({ passed: check.passed, status: check.status, reason: check.reason, risk_level: check.riskLevel, unresolved: check.unresolved }).toEqual(
      e.expected_check,
    );
  });

  it('a receipt whose diff_bytes and diff_lines match the diff it was written for', () => {
    for (const e of expectations.filter((x) => x.expected_check.passed)) {
      const r = receipt(e.receipt_file);
      expect(r.diffBytes).toBe(BigInt(utf8(e.current_diff).length));
    }
  });
});

describe('the rules and their order', () => {
  const base = () => receipt('review-receipt.clean-pass.json');
  const fp = base().diffFingerprint;

  it('schema first, and a v2 receipt for another diff is still reported as diff_mismatch (the status order differs)', () => {
    const r = { ...base(), schemaVersion: 2n };
    expect(checkReviewReceipt(r, fp)).toMatchObject({ passed: false, status: 'unsupported_schema', reason: 'unsupported review receipt schema version 2' });
    expect(checkReviewReceipt(r, 'sha256:00')).toMatchObject({ status: 'diff_mismatch', reason: 'unsupported review receipt schema version 2' });
  });

  it('attached checks: passed, pass, success and ok (any case, trimmed) pass; skipped and not_run fail; none passes', () => {
    for (const status of ['passed', ' PASS ', 'Success', 'ok'])
      expect(checkReviewReceipt({ ...base(), checksRun: [{ name: 't', status }] }, fp).passed).toBe(true);
    for (const status of ['skipped', 'not_run', 'failed', '']) {
      expect(checkReviewReceipt({ ...base(), checksRun: [{ name: 't', status }] }, fp)).toMatchObject({
        passed: false,
        status: 'check_failed',
        reason: `review receipt check 't' did not pass: ${status}`,
      });
    }
    expect(checkReviewReceipt({ ...base(), checksRun: [] }, fp).passed).toBe(true);
  });

  it('without the diff, the fingerprint rule is not run, and says so', () => {
    expect(checkReviewReceipt(base())).toMatchObject({ passed: true, diffChecked: false });
    expect(checkReviewReceipt(base(), fp).diffChecked).toBe(true);
  });
});

describe('diff fingerprints', () => {
  it('past --max-chars: cut at a character boundary within max - 16 bytes, then "\\n...[truncated]\\n"', () => {
    // 61 bytes; at 24, the cut is within 8 bytes: "+" and three and a half "é", so back to 7.
    const diff = `+${'é'.repeat(30)}`;
    const expected = diffFingerprint(utf8(`${diff.slice(0, 4)}\n...[truncated]\n`), 1_000);
    expect(diffFingerprint(utf8(diff), 24)).toBe(expected);
    expect(diffFingerprint(utf8(diff), 61)).toBe(diffFingerprint(utf8(diff)));
    expect(diffFingerprint(utf8(diff), 60)).not.toBe(diffFingerprint(utf8(diff)));
  });

  it('invalid UTF-8 is hashed as U+FFFD, as from_utf8_lossy reads it', () => {
    expect(diffFingerprint(new Uint8Array([0x2b, 0xff, 0x0a]))).toBe(diffFingerprint(utf8('+\ufffd\n')));
  });
});

describe('reading a review receipt', () => {
  it('a missing field or a wrong type is named by its path', () => {
    const parsed = parseJson('{"schema_version":1,"mode":"pre_push_review"}');
    if (!parsed.ok) throw new Error('fixture');
    expect(parseReviewReceipt(parsed.value)).toMatchObject({ ok: false, path: '$.findings' });
    const text = readTestdataText('codewhale/synthesized/review-receipt.clean-pass.json').replace('"diff_lines": 2', '"diff_lines": "2"');
    const bad = parseJson(text);
    if (!bad.ok) throw new Error('fixture');
    expect(parseReviewReceipt(bad.value)).toMatchObject({ ok: false, path: '$.diff_lines', reason: '$.diff_lines must be an unsigned integer, not string' });
  });
});
