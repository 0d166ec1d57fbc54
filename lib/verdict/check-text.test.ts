// The closed list of check reasons and its one table (check-text.ts), and how check results carry
// them (check.ts): a code always with its text, fixed texts read back to their code, decisions by code.
import { describe, expect, it } from 'vitest';
import { fail, isExpectedSkip, pass, resultKey, skipped } from './check';
import { CHECK_CODES, CHECK_TEXT, type CheckCode, checkCodeOf, checkText, reasonWords } from './check-text';
import { judgeReceipt } from './report';

const fixed = CHECK_CODES.filter((c) => typeof CHECK_TEXT[c] === 'string');

describe('check reasons', () => {
  it('each fixed text is one code alone, and reads back to it', () => {
    const texts = fixed.map((c) => CHECK_TEXT[c] as string);
    expect(new Set(texts).size).toBe(texts.length);
    for (const c of fixed) expect(checkCodeOf(checkText(c as 'uncheckpointed')), c).toBe(c);
  });

  it("the contract's reasons are the report's text, as the contract writes them", () => {
    // verification.md §5, verification-v2.md §5.1, §5.4, §11.
    const named: [CheckCode, string][] = [
      ['uncheckpointed', 'uncheckpointed'],
      ['no_key_pinned', 'no key pinned'],
      ['predecessor_not_supplied', 'predecessor_not_supplied'],
      ['chain_prefix_incomplete', 'chain_prefix_incomplete'],
      ['no_chain_commitment', 'no_chain_commitment'],
      ['no_output', 'no_output'],
      ['stream_output', 'stream_output'],
      ['redacted_profile', 'redacted_profile'],
      ['no_delivery', 'no_delivery'],
      ['approval_members_unknown', 'approval_members_unknown'],
    ];
    for (const [code, text] of named) expect(CHECK_TEXT[code]).toBe(text);
  });

  it('a text with specifics reads back to no code, and a terse reason reads as words', () => {
    expect(checkCodeOf(checkText('seq_repeated', 4n, 2))).toBeUndefined();
    expect(checkCodeOf(undefined)).toBeUndefined();
    expect(checkCodeOf('constructor')).toBeUndefined();
    expect(reasonWords('uncheckpointed')).toBe('no checkpoint covers it yet');
    expect(reasonWords('the signing key is not pinned')).toBe('the signing key is not pinned');
  });
});

describe('check results', () => {
  it('carry their code and its text; a plain pass carries neither', () => {
    expect(pass()).toEqual({ status: 'pass' });
    expect(fail('seq_repeated', 7n, 3)).toEqual({ status: 'fail', code: 'seq_repeated', detail: 'receipt seq 7 appears 3 times in the log' });
    expect(skipped('uncheckpointed')).toEqual({ status: 'skipped', code: 'uncheckpointed', detail: 'uncheckpointed' });
    expect(fail('signature_mismatch', { checkpointSeq: 4n }).detail).toBe(
      'checkpoint 4: the signature does not match the signed fields: the checkpoint was changed after signing, or signed by another key',
    );
    expect(fail('signature_mismatch', {}).detail).toMatch(/^the signature does not match the signed fields: the receipt was changed/);
  });

  it('share a key only when code and text agree', () => {
    // Two codes whose text is the specifics alone: the same words, two reasons.
    expect(resultKey(fail('risk_unresolved', 'x'))).not.toBe(resultKey(fail('turn_rule_failed', 'x')));
    expect(resultKey(fail('risk_unresolved', 'x'))).toBe(resultKey(fail('risk_unresolved', 'x')));
    expect(resultKey(pass())).toBe('pass');
  });

  it('decide by code: the expected skips and the verdict rule', () => {
    expect(isExpectedSkip('inclusion', 'uncheckpointed')).toBe(true);
    expect(isExpectedSkip('inclusion', 'checkpoint_missing')).toBe(false);
    expect(isExpectedSkip('content_hash', 'stream_output')).toBe(true);
    expect(isExpectedSkip('delivery', 'approval_members_unknown')).toBe(true);
    expect(isExpectedSkip('signature', 'signature_not_checked')).toBe(false);
    const checks = { parse: pass(), signature: pass(), parameter_hash: pass(), inclusion: skipped('uncheckpointed'), signer_trusted: skipped('no_key_pinned') };
    const judge = (c: Record<string, ReturnType<typeof pass>>) => judgeReceipt('tool', 'A', Object.keys(c), (n) => c[n]);
    expect(judge(checks)).toEqual({ verdict: 'unverified', unpinned: true });
    expect(judge({ ...checks, signer_trusted: pass() })).toEqual({ verdict: 'verified', unpinned: false });
    // The same words under another code are not the uncheckpointed tail.
    expect(judge({ ...checks, signer_trusted: pass(), inclusion: skipped('claims_unchecked', 'uncheckpointed') })).toEqual({
      verdict: 'unverified',
      unpinned: false,
    });
  });
});
