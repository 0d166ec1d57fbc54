// Chio's own receipt vectors (Gen A and Gen B), the fuzz-corpus shapes and the
// web3 anchor example, through the same decode and check functions the
// orchestrator uses. Each loop reports "N of M".
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../json/canonicalize';
import { parseJson } from '../json/parse';
import { type JsonObject, isJsonObject } from '../json/value';
import { leafHash, verifyInclusion } from '../merkle';
import { fromHex } from '../bytes/hex';
import { readTestdataJson, readTestdataText, summarize } from '../../test/support/testdata';
import { checkParameterHash, checkReceiptSignature } from '../verify/receipt-checks';
import { canonicalBytes } from '../json/canonicalize';
import { decodeToolReceipt } from './tool-receipt';
import { decodeChildReceipt } from './child-receipt';
import { checkpointStructureError, decodeCheckpoint } from './checkpoint';
import { CHIO_RECEIPT_VECTOR_FILES, runChioReceiptSuite } from '../selftest/chio-vectors';
import { verifyChioSignature } from '../crypto/chio-signature';

function objectOf(value: unknown): JsonObject {
  const r = parseJson(JSON.stringify(value));
  if (!r.ok || !isJsonObject(r.value)) throw new Error('vector is not an object');
  return r.value;
}

describe('Chio receipt vectors through the shared suite', () => {
  it.each([
    ['A', CHIO_RECEIPT_VECTOR_FILES.genA, 4],
    ['B', CHIO_RECEIPT_VECTOR_FILES.genB, 14],
  ] as const)('Gen %s: %s matches every case', async (gen, file, count) => {
    const o = await runChioReceiptSuite(readTestdataText(file), gen);
    expect(o.total).toBe(count);
    expect(o.failures, summarize(`gen ${gen} receipts`, o.total, o.failures)).toEqual([]);
  });
});

describe('fuzz-corpus shapes', () => {
  it('tenant-receipt.json: tenant_id is signed, so injecting it breaks the signature', async () => {
    const d = decodeToolReceipt(objectOf(readTestdataJson('chio/gen-a-upstream/fuzz/corpus/fuzz_capability_receipt/tenant-receipt.json')));
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(d.value.tenantId).toBeDefined();
    expect((await checkReceiptSignature(d.value, {})).check).toMatchObject({ status: 'fail', code: 'signature_mismatch' });
  });

  it('child-request-receipt.json decodes as a child receipt and its all-zero signature fails', async () => {
    const d = decodeChildReceipt(objectOf(readTestdataJson('chio/gen-a-upstream/fuzz/corpus/fuzz_capability_receipt/child-request-receipt.json')));
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(d.value.operationKind).toBe('create_message');
    const out = await checkReceiptSignature(d.value, {});
    expect(out.check.status).toBe('fail');
    expect(out.problems.map((p) => p.code)).toEqual(['signature_invalid']);
  });
});

describe.each([
  ['CHIO_ANCHOR_INCLUSION_PROOF_EXAMPLE.json', (o: JsonObject) => o],
  ['CHIO_ANCHOR_PROOF_BUNDLE_EXAMPLE.json', (o: JsonObject) => o.get('primary_proof') as JsonObject],
] as const)('web3 anchor example %s', (file, pick) => {
  const example = pick(objectOf(readTestdataJson(`chio/gen-a-upstream/docs/standards/${file}`)));

  it('the receipt (financial, with a wei amount above 2^53) verifies', async () => {
    const d = decodeToolReceipt(example.get('receipt') as JsonObject);
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect((await checkReceiptSignature(d.value, {})).check.status).toBe('pass');
    expect(checkParameterHash(d.value).status).toBe('pass');
    expect(d.value.financial?.costCharged).toBe(150n);
    expect(canonicalize(d.value.signingBody)).toContain('"original_cost_units":100000000000000');
  });

  it('the flat checkpoint statement verifies, and its tree_size breaks the structure rule', async () => {
    const d = decodeCheckpoint(example.get('checkpoint_statement') as JsonObject);
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    const sig = await verifyChioSignature(d.value.kernelKey, d.value.signature, canonicalBytes(d.value.body));
    expect(sig.status).toBe('pass');
    // batch 104101–104200 with tree_size 1: an illustration, not a kernel checkpoint.
    expect(checkpointStructureError(d.value)).toMatch(/tree_size 1/);
  });

  it('its one-leaf proof matches the anchor convention (body leaf), not the kernel one', () => {
    const d = decodeToolReceipt(example.get('receipt') as JsonObject);
    if (!d.ok) throw new Error('decode');
    const inclusion = example.get('receipt_inclusion') as JsonObject;
    const root = fromHex((inclusion.get('merkle_root') as string).slice(2), 32)!;
    expect(verifyInclusion(0, 1, leafHash(canonicalBytes(d.value.anchorBody)), [], root).ok).toBe(true);
    expect(verifyInclusion(0, 1, leafHash(canonicalBytes(d.value.fullTyped)), [], root).ok).toBe(false);
  });
});

describe('projection rules (chio-format.md §1.1, §4)', () => {
  const base = JSON.parse(readTestdataText('chio/gen-a-upstream/tests/bindings/vectors/receipt/v1.json')).cases[0].receipt;

  it('unknown keys are not signed and are reported', async () => {
    const d = decodeToolReceipt(objectOf({ ...base, injected: 'x', action: { ...base.action, extra: 1 } }));
    if (!d.ok) throw new Error('decode');
    expect(d.value.unsigned).toEqual(['$.action.extra', '$.injected']);
    expect((await checkReceiptSignature(d.value, {})).check.status).toBe('pass');
  });

  it('null optionals and a spelled-out mediated trust level are omitted; kernel_key is normalized', async () => {
    const d = decodeToolReceipt(
      objectOf({ ...base, tenant_id: null, trust_level: 'mediated', algorithm: 'ed25519', kernel_key: '0x' + base.kernel_key.toUpperCase() }),
    );
    if (!d.ok) throw new Error('decode');
    expect((await checkReceiptSignature(d.value, {})).check.status).toBe('pass');
  });

  it('wrong types are shape errors with a field path', () => {
    const d = decodeToolReceipt(objectOf({ ...base, timestamp: '1710000200', decision: { verdict: 'maybe' } }));
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.issues.map((i) => i.path)).toEqual(['$.timestamp', '$.decision.verdict']);
  });

  it('an algorithm field that disagrees with the signature fails with algorithm_mismatch', async () => {
    const d = decodeToolReceipt(objectOf({ ...base, algorithm: 'p256' }));
    if (!d.ok) throw new Error('decode');
    const out = await checkReceiptSignature(d.value, {});
    expect(out.check).toMatchObject({ status: 'fail', code: 'algorithm_mismatch' });
    expect(out.problems.map((p) => p.code)).toEqual(['algorithm_mismatch']);
  });
});
