// Fuzz (sized by FUZZ_SCALE): real and forged signed lineage rows, mutated a character at a time
// and structurally (values replaced, keys added, deleted or renamed). Nothing throws, every row
// gets one result or one parse_error, and a signed_token row is verified only when what it
// claims (the token's signed bytes and the row's projection) is what was signed.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeCapabilityToken } from '../chio/capability-token';
import { decodeLineageRow } from '../chio/lineage-row';
import { parseChioSignature } from '../crypto/chio-signature';
import { canonicalize } from '../json/canonicalize';
import { parseJson } from '../json/parse';
import { capabilityToken, keyFromSeed, lineageRowOf } from '../../test/support/forge';
import { fuzzParams, fuzzTimeout } from '../../test/support/fuzz';
import { jsonEdit, mutateJson } from '../../test/support/json-mutate';
import { testdataPath } from '../../test/support/testdata';
import { LogVerifier } from './log-verifier';
import type { VerificationReport } from '../verdict/report';

const REAL = readFileSync(testdataPath('chio/realworld-2026-09/minimal-evidence/capability-lineage.ndjson'), 'utf8').trim();
const key = keyFromSeed(51);
const link = { capability_id: 'cap-root', delegator: key.publicHex, delegatee: keyFromSeed(52).publicHex, timestamp: 1789065000, signature: '00'.repeat(64) };
const DELEGATED = JSON.stringify(lineageRowOf(capabilityToken({ id: 'cap-child', key, subject: keyFromSeed(52).publicHex, chain: [link] })));
const SAMPLES = [REAL, DELEGATED];

async function verifyRow(text: string): Promise<VerificationReport> {
  const v = new LogVerifier();
  await v.addRecord(text, { file: 'capability-lineage.ndjson', line: 1, role: 'lineage', space: 'p' });
  return v.finish();
}

const signatureBytes = (text: string) => {
  const parsed = parseChioSignature(text);
  return parsed.ok ? parsed.signature.normalized : text;
};

/** What a row claims under its signature: the token's signed bytes and the row's projection of them. */
function claims(text: string): string | null {
  const parsed = parseJson(text);
  if (!parsed.ok) return null;
  const row = decodeLineageRow(parsed.value, '$');
  if (!row.ok || row.row.token === undefined) return null;
  const token = decodeCapabilityToken(row.row.token);
  if (!token.ok) return null;
  const grants = parseJson(row.row.grantsJson);
  const r = row.row;
  return JSON.stringify([
    // The signature as bytes: its hex may be spelled in either case.
    canonicalize(token.token.signingBody),
    signatureBytes(token.token.signature),
    r.capabilityId,
    r.subjectKey,
    r.issuerKey,
    String(r.issuedAt),
    String(r.expiresAt),
    grants.ok ? canonicalize(grants.value) : null,
    String(r.delegationDepth),
    r.parentCapabilityId,
    r.provenance,
  ]);
}

function expectWellFormed(report: VerificationReport): void {
  const rows = report.lineage?.length ?? 0;
  const parseErrors = report.problems.filter((p) => p.code === 'parse_error' || p.code === 'duplicate_key').length;
  expect(rows + parseErrors).toBe(1);
  for (const l of report.lineage ?? []) {
    expect(l.verdict === 'failed').toBe(l.problems.length > 0);
    expect(report.summary.lineage_failed).toBe(l.verdict === 'failed' ? 1 : 0);
  }
}

describe('mutated signed lineage rows', () => {
  it('the samples verify as they are (or the properties below would prove nothing)', async () => {
    for (const s of SAMPLES) expect((await verifyRow(s)).lineage!.map((l) => l.verdict)).toEqual(['verified']);
  });

  it(
    'a single-character mutation is verified only if what the row claims is unchanged',
    async () => {
      const alphabet = '0123456789abcdef"{}[],:.-eE \\ntrfalsu'.split('');
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...SAMPLES),
          fc.nat(),
          fc.constantFrom(...alphabet),
          fc.constantFrom('replace', 'insert', 'delete'),
          async (line, at, ch, op) => {
            const i = at % line.length;
            const mutated =
              op === 'replace'
                ? line.slice(0, i) + ch + line.slice(i + 1)
                : op === 'insert'
                  ? line.slice(0, i) + ch + line.slice(i)
                  : line.slice(0, i) + line.slice(i + 1);
            const report = await verifyRow(mutated);
            expectWellFormed(report);
            const row = report.lineage?.[0];
            if (row?.verdict === 'verified' && row.provenance === 'signed_token') expect(claims(mutated)).toBe(claims(line));
          },
        ),
        fuzzParams(800, { caseTimeoutMs: 60_000 }),
      );
    },
    fuzzTimeout(),
  );

  it(
    'structured mutations: the same',
    async () => {
      let verified = 0;
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...SAMPLES), fc.array(jsonEdit, { minLength: 1, maxLength: 3 }), async (sample, edits) => {
          const mutated = mutateJson(sample, edits);
          if (mutated === null || mutated.includes('\n')) return;
          const report = await verifyRow(mutated);
          expectWellFormed(report);
          const row = report.lineage?.[0];
          if (row?.verdict === 'verified' && row.provenance === 'signed_token') {
            expect(claims(mutated)).toBe(claims(sample));
            verified++;
          }
        }),
        fuzzParams(800, { caseTimeoutMs: 60_000 }),
      );
      // Some mutations leave the claims alone (a key the row does not read, a number's spelling),
      // or the `verified` branch above was never exercised.
      expect(verified).toBeGreaterThan(0);
    },
    fuzzTimeout(),
  );
});
