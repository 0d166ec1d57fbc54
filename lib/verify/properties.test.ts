// Property tests: no parse or verify function throws on arbitrary input, and a
// mutated real receipt never comes out `verified` unless the bytes it signs are
// unchanged (i.e. the mutation touched only whitespace or unsigned text).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { LogVerifier } from './log-verifier';
import { intakeRecord } from './intake';
import { decodeToolReceipt } from '../chio/tool-receipt';
import { decodeChildReceipt } from '../chio/child-receipt';
import { decodeHttpReceipt } from '../chio/http-receipt';
import { decodeCheckpoint, decodeInclusionProof } from '../chio/checkpoint';
import { canonicalize } from '../json/canonicalize';
import { parseJson } from '../json/parse';
import { isJsonObject, type JsonObject } from '../json/value';
import { testdataPath } from '../testutil/testdata';
import { TrustStore } from '../trust/trust-store';

const lines = (rel: string) => readFileSync(testdataPath(rel), 'utf8').trim().split('\n');
const receiptLines = lines('corpus/good/receipts.ndjson');
const childLines = lines('corpus/good/child-receipts.ndjson');
const KEY = 'd04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737';

const anyJsonObject = fc.jsonValue().map((v) => parseJson(JSON.stringify(v))).filter((r) => r.ok && isJsonObject(r.value)).map((r) => (r as { value: JsonObject }).value);

describe('never throws', () => {
  it('decoders, on arbitrary JSON objects', () => {
    fc.assert(
      fc.property(anyJsonObject, (o) => {
        decodeToolReceipt(o);
        decodeChildReceipt(o);
        decodeHttpReceipt(o);
        decodeCheckpoint(o);
        decodeInclusionProof(o);
      }),
      { numRuns: 2000 },
    );
  });

  it('intake and the whole verifier, on arbitrary text in every role', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.string({ unit: 'binary' }), fc.jsonValue().map((v) => JSON.stringify(v))), { maxLength: 8 }),
        fc.constantFrom('auto', 'tool', 'child', 'http', 'checkpoint', 'proof', 'publication', 'witness', 'consistency', 'equivocation', 'lineage'),
        async (texts, role) => {
          const v = new LogVerifier();
          for (const [i, t] of texts.entries()) {
            intakeRecord(t, role);
            await v.addRecord(t, { file: 'f', line: i + 1, role, space: 's' });
          }
          await v.finish();
        },
      ),
      { numRuns: 400 },
    );
  });
});

function signedBytesOf(text: string): string | null {
  const r = intakeRecord(text, 'auto');
  if (!r.ok || r.items.length !== 1) return null;
  const item = r.items[0]!;
  const d = item.kind === 'child' ? decodeChildReceipt(item.value) : decodeToolReceipt(item.value);
  return d.ok ? canonicalize(d.value.signingBody) : null;
}

describe('nothing false verifies', () => {
  const trust = TrustStore.create([{ key: KEY }]);
  if (!trust.ok) throw new Error(trust.error);

  it('a single-character mutation of a real receipt (Gen A, Gen B, child) is verified only if its signed bytes are unchanged', async () => {
    const samples = [receiptLines[0]!, receiptLines[4]!, receiptLines[249]!, childLines[1]!];
    const alphabet = '0123456789abcdef"{}[],:.-eE \\ntrfalsu'.split('');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...samples), fc.nat(), fc.constantFrom(...alphabet), fc.constantFrom('replace', 'insert', 'delete'), async (line, at, ch, op) => {
        const i = at % line.length;
        const mutated = op === 'replace' ? line.slice(0, i) + ch + line.slice(i + 1) : op === 'insert' ? line.slice(0, i) + ch + line.slice(i) : line.slice(0, i) + line.slice(i + 1);
        const v = new LogVerifier({ trust: trust.store });
        await v.addRecord(mutated, { file: 'f', line: 1, role: 'auto', space: 's' });
        const report = await v.finish();
        if (report.receipts[0]?.verdict === 'verified') {
          expect(signedBytesOf(mutated)).toBe(signedBytesOf(line));
        }
      }),
      { numRuns: 1500 },
    );
  });
});
