// Chio's own receipt vectors (Gen A and Gen B, chio-format.md §13) as a suite:
// each case's signed bytes, signature, parameter hash and (Gen B) id and
// semantics against its `expected`. Shared by the Node tests and the browser
// self-test, so both check the same thing.
import { parseJson } from '../json/parse';
import { canonicalize } from '../json/canonicalize';
import { isJsonObject } from '../json/value';
import { decodeToolReceipt } from '../chio/tool-receipt';
import { claimedResult } from '../chio/labels';
import { checkParameterHash, checkReceiptId, checkReceiptSignature, checkSemantics } from '../verify/receipt-checks';

export const CHIO_RECEIPT_VECTOR_FILES = {
  genA: 'chio/gen-a-upstream/tests/bindings/vectors/receipt/v1.json',
  genB: 'chio/gen-b-upstream/tests/bindings/vectors/receipt/v1.json',
} as const;

export interface ChioSuiteOutcome {
  generation: 'A' | 'B';
  total: number;
  matched: number;
  failures: string[];
}

interface ReceiptCase {
  id: string;
  receipt: unknown;
  receipt_body_canonical_json: string;
  expected: Record<string, unknown>;
}

/** Runs one vector file; Gen A checks the signed body, Gen B the id input and reference result object. */
export async function runChioReceiptSuite(fileText: string, generation: 'A' | 'B'): Promise<ChioSuiteOutcome> {
  const { cases } = JSON.parse(fileText) as { cases: ReceiptCase[] };
  const out: ChioSuiteOutcome = { generation, total: cases.length, matched: 0, failures: [] };
  for (const c of cases) {
    const problems = await checkCase(c, generation);
    if (problems.length === 0) out.matched++;
    else out.failures.push(`${c.id}: ${problems.join('; ')}`);
  }
  return out;
}

async function checkCase(c: ReceiptCase, generation: 'A' | 'B'): Promise<string[]> {
  const parsed = parseJson(JSON.stringify(c.receipt));
  if (!parsed.ok || !isJsonObject(parsed.value)) return ['not a JSON object'];
  const d = decodeToolReceipt(parsed.value);
  if (!d.ok) return [`does not decode: ${d.issues.map((i) => `${i.path} ${i.message}`).join(', ')}`];
  const r = d.value;
  const problems: string[] = [];
  if (r.generation !== generation) problems.push(`detected as Gen ${r.generation}`);
  const crypto = (await checkReceiptSignature(r, {})).check.status === 'pass';
  const got: Record<string, unknown> = {
    parameter_hash_valid: checkParameterHash(r).status === 'pass',
    decision: r.decision?.verdict ?? 'none',
  };
  if (generation === 'A') {
    got.signature_valid = crypto;
    if (canonicalize(r.signingBody) !== c.receipt_body_canonical_json) problems.push('signed body bytes differ');
  } else {
    const idValid = checkReceiptId(r).status === 'pass';
    // The reference `signature_valid` is the whole verify_signature: semantics, binding, id and crypto.
    Object.assign(got, {
      receipt_id_valid: idValid,
      signature_valid: crypto && idValid && checkSemantics(r).status === 'pass',
      receipt_kind: r.genB?.receiptKind,
      boundary_class: r.genB?.boundaryClass,
      trust_level: r.trustLevel,
      signer_key_hex: r.kernelKeyNormalized,
      result: claimedResult(r),
    });
    // The vector's canonical JSON is the typed receipt without its signature (id included).
    if (canonicalize(r.anchorBody) !== c.receipt_body_canonical_json) problems.push('canonical body differs');
  }
  for (const [k, v] of Object.entries(got)) {
    if (c.expected[k] !== v) problems.push(`${k} expected ${JSON.stringify(c.expected[k])}, got ${JSON.stringify(v)}`);
  }
  return problems;
}
