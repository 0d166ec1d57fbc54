// Format §16.11 and contract part 2 §2: `tool_origin: chio_internal` is a receipt like any other,
// and key and signature strings are read with a bounded grammar, so a 20,000-deep `hybrid:`
// nesting (about 520 kB a string) is refused as a bad signature at once instead of recursing.
import { describe, expect, it } from 'vitest';
import { parseChioPublicKey, parseChioSignature } from '../crypto/chio-signature';
import { parseJson } from '../json/parse';
import { type JsonObject, isJsonObject } from '../json/value';
import { compactJson } from '../json/pretty';
import { demoKey } from '../../tools/demo/sign';
import { resign } from '../../test/support/adversary';
import { readTestdataText } from '../../test/support/testdata';
import { LogVerifier } from './log-verifier';

const real = (): JsonObject => {
  const p = parseJson(readTestdataText('chio/realworld-2026-09/paid-normal/receipt.json'));
  if (!p.ok || !isJsonObject(p.value)) throw new Error('parse');
  return p.value;
};

async function verifyOne(receipt: JsonObject, trust?: string) {
  const { TrustStore } = await import('../trust/trust-store');
  const store = TrustStore.create(trust ? [{ key: trust }] : []);
  if (!store.ok) throw new Error(store.error);
  const v = new LogVerifier({ trust: store.store });
  await v.addRecord(compactJson(receipt), { file: 'receipt.json', line: 1, role: 'auto', space: 's' });
  return v.finish();
}

describe('tool_origin chio_internal (format §16.11)', () => {
  const key = demoKey('v2-enums', 'kernel');

  it('a Gen B receipt executed inside Chio verifies like any other, and a value outside the enum is a parse error', async () => {
    const r = real();
    r.set('tool_origin', 'chio_internal');
    resign(r, 'tool', key);
    const report = await verifyOne(r, key.publicHex);
    expect(report.problems).toEqual([]);
    expect(report.receipts[0]!.verdict).toBe('verified');
    expect(report.receipts[0]!.checks).toMatchObject({ signature: 'pass', receipt_id: 'pass', semantics: 'pass' });

    const other = real();
    other.set('tool_origin', 'chio_external');
    const bad = await verifyOne(other);
    expect(bad.receipts).toEqual([]);
    expect(bad.problems.map((p) => [p.code, p.line])).toEqual([['parse_error', 1]]);
    expect(bad.problems[0]!.message).toMatch(/tool_origin: expected one of .*chio_internal/);
  });
});

describe('the bounded hybrid grammar (contract part 2 §2)', () => {
  const nested = (depth: number, tail: string) => 'hybrid:'.repeat(depth) + tail;
  const ed = 'ab'.repeat(32);
  const tail = `${ed}:${'cd'.repeat(1952)}:ed25519+mldsa65`;

  it('a 20,000-deep nesting is one refused string, not a recursion', () => {
    const key = nested(20_000, tail);
    expect(key.length).toBeGreaterThan(140_000);
    expect(parseChioPublicKey(key)).toEqual({ ok: false, reason: 'hybrid_nested' });
    const sig = nested(20_000, `${'ef'.repeat(64)}:${'01'.repeat(3309)}:ed25519+mldsa65`);
    expect(sig.length).toBeGreaterThan(140_000);
    expect(parseChioSignature(sig)).toEqual({ ok: false, reason: 'hybrid_nested' });
    // Depth 2 is already nesting; depth 1 is the grammar.
    expect(parseChioPublicKey(nested(2, tail))).toEqual({ ok: false, reason: 'hybrid_nested' });
    expect(parseChioPublicKey(nested(1, tail)).ok).toBe(true);
  });

  it('a receipt whose key and signature are 520 kB nestings fails its signature with signature_invalid, and the next receipt still verifies', async () => {
    const key = demoKey('v2-enums', 'kernel');
    const bad = real();
    bad.set('kernel_key', nested(20_000, `${ed}:${'cd'.repeat(1952)}:ed25519+mldsa65`) + 'x'.repeat(380_000));
    bad.set('signature', nested(20_000, `${'ef'.repeat(64)}:${'01'.repeat(3309)}:ed25519+mldsa65`));
    const good = real();
    resign(good, 'tool', key);
    const { TrustStore } = await import('../trust/trust-store');
    const v = new LogVerifier({ trust: TrustStore.empty() });
    await v.addRecord(compactJson(bad), { file: 'log.ndjson', line: 1, role: 'auto', space: 's' });
    await v.addRecord(compactJson(good), { file: 'log.ndjson', line: 2, role: 'auto', space: 's' });
    const report = await v.finish();
    expect(report.receipts.map((r) => [r.line, r.checks.signature])).toEqual([
      [1, 'fail'],
      [2, 'pass'],
    ]);
    // Its id input changed too (kernel_key is part of it), so receipt_id fails beside the signature.
    expect(
      report.problems
        .filter((p) => p.line === 1)
        .map((p) => p.code)
        .sort(),
    ).toEqual(['receipt_id_mismatch', 'signature_invalid']);
  });
});
