// receiptSemantics (chio-format-v2.md §16.8.1) as ranges: what is certain is
// compared exactly; what cannot be known (a signature that could not be
// checked, a Gen A receipt, an unreadable line) leaves a claim undecided
// inside the range and failed outside it.
import { describe, expect, it } from 'vitest';
import { fail, pass, skipped } from '../verdict/check';
import type { ReceiptEntry } from './entries';
import { type SemanticCounts, compareSemantics, semanticRange } from './receipt-semantics';

function entry(semantics: string | undefined, checks: ReceiptEntry['checks'] = {}): ReceiptEntry {
  return {
    file: 'receipts.ndjson',
    line: 1,
    order: 0,
    id: 'r',
    type: 'tool',
    space: 's',
    timestamp: 0n,
    kernelKey: null,
    leafHashes: new Uint8Array(64),
    checks: { receipt_id: pass(), signature: pass(), parameter_hash: pass(), ...checks },
    ...(semantics !== undefined ? { semantics } : {}),
  };
}

const counts = (c: Partial<SemanticCounts>): SemanticCounts => ({
  mediatedDecisions: 0n,
  traceObservations: 0n,
  advisoryEvaluations: 0n,
  prevent: 0n,
  detectOnly: 0n,
  advisoryOnly: 0n,
  cannotSee: 0n,
  authorized: 0n,
  ...c,
});

describe('semanticRange and compareSemantics', () => {
  it('exact: an allowed receipt whose checks pass is authorized; a trace observation is not', () => {
    const range = semanticRange([entry('mediated_decision/prevent/allowed'), entry('trace_observation/detect_only')], 0);
    expect(range.unknown).toEqual([]);
    expect(compareSemantics(counts({ mediatedDecisions: 1n, prevent: 1n, authorized: 1n, traceObservations: 1n, detectOnly: 1n }), range)).toEqual({
      status: 'pass',
    });
  });

  it('an allowed receipt whose id, signature or parameter_hash failed is not authorized', () => {
    for (const check of ['receipt_id', 'signature', 'parameter_hash'] as const) {
      const range = semanticRange([entry('mediated_decision/prevent/allowed', { [check]: fail('receipt_id_mismatch', 'x', 'y') })], 0);
      expect(range.hi.authorized, check).toBe(0n);
    }
  });

  it('a signature that could not be checked (hybrid without ML-DSA): authorized 0 or 1 is undecided, 2 fails', () => {
    const range = semanticRange([entry('mediated_decision/prevent/allowed', { signature: skipped('signature_not_checked', 'mldsa_unavailable') })], 0);
    const base = { mediatedDecisions: 1n, prevent: 1n };
    for (const authorized of [0n, 1n]) expect(compareSemantics(counts({ ...base, authorized }), range).status).toBe('skipped');
    expect(compareSemantics(counts({ ...base, authorized: 2n }), range)).toEqual({
      status: 'fail',
      mismatches: [
        'receiptSemantics.authorized says 2, the tool receipts give between 0 and 1 (it counts allowed receipts whose id, signature and parameter_hash verify)',
      ],
    });
  });

  it('lines of receipts.ndjson that never became receipts widen every counter', () => {
    const range = semanticRange([], 2);
    expect(compareSemantics(counts({ prevent: 2n }), range)).toEqual({
      status: 'skipped',
      reason: 'receiptSemantics cannot be recomputed exactly: 2 lines of receipts.ndjson that could not be read',
    });
    expect(compareSemantics(counts({ prevent: 3n }), range).status).toBe('fail');
  });

  it('a Gen A receipt may count under any kind and boundary, never as authorized', () => {
    const range = semanticRange([entry(undefined)], 0);
    expect(range.hi).toMatchObject({ mediatedDecisions: 1n, cannotSee: 1n, authorized: 0n });
    expect(compareSemantics(counts({ authorized: 1n }), range).status).toBe('fail');
  });
});
