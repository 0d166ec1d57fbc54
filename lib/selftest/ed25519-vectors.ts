// The upstream Ed25519 vectors (lib/testdata/ed25519/) as one list, and the
// suite that runs them through an engine: contract §4's expected results
// (RFC 8032 accept, Wycheproof per `result`, speccheck and ZIP-215 reject,
// SUPERCOP accept). Pure, so the Node tests and the browser self-test run the
// very same check (contract §1.5: every engine must agree).
import { fromHex, utf8 } from '../bytes/hex';
import { type Ed25519Engine, type Ed25519Result, verifyEd25519 } from '../crypto/ed25519';

export type Ed25519Source = 'rfc8032' | 'wycheproof' | 'speccheck' | 'zip215' | 'supercop';

export interface Ed25519Vector {
  source: Ed25519Source;
  label: string;
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
  expectValid: boolean;
}

/** The text of each vector file, as copied from upstream. */
export interface Ed25519VectorFiles {
  rfc8032: string;
  wycheproof: string;
  speccheck: string;
  zip215: string;
  supercop: string;
}

export const ED25519_VECTOR_FILES: Record<keyof Ed25519VectorFiles, string> = {
  rfc8032: 'ed25519/rfc8032/rfc8032-section7.1-ed25519.json',
  wycheproof: 'ed25519/wycheproof/ed25519_test.json',
  speccheck: 'ed25519/speccheck/cases.json',
  zip215: 'ed25519/zip215-and-supercop/zip215.json',
  supercop: 'ed25519/zip215-and-supercop/sign.input.txt',
};

export const ED25519_EXPECTED_COUNTS: Record<Ed25519Source, number> = { rfc8032: 5, wycheproof: 151, speccheck: 12, zip215: 196, supercop: 1024 };

const hex = (h: string): Uint8Array => {
  const b = fromHex(h);
  if (b === null) throw new Error(`bad hex in vector: ${h.slice(0, 20)}…`);
  return b;
};

/** Parses the vector files; throws on a malformed vector file (a test-data bug, not input). */
export function parseEd25519Vectors(files: Ed25519VectorFiles): Ed25519Vector[] {
  const out: Ed25519Vector[] = [];
  const rfc = JSON.parse(files.rfc8032) as { vectors: { name: string; publicKey: string; message: string; signature: string }[] };
  for (const v of rfc.vectors) {
    out.push({ source: 'rfc8032', label: v.name, publicKey: hex(v.publicKey), message: hex(v.message), signature: hex(v.signature), expectValid: true });
  }
  const wp = JSON.parse(files.wycheproof) as {
    testGroups: { publicKey: { pk: string }; tests: { tcId: number; comment: string; msg: string; sig: string; result: string }[] }[];
  };
  for (const g of wp.testGroups) {
    for (const t of g.tests) {
      // No `acceptable` results exist in this file; anything else is a test-data bug.
      if (t.result !== 'valid' && t.result !== 'invalid') throw new Error(`wycheproof tcId ${t.tcId}: result ${t.result}`);
      out.push({
        source: 'wycheproof',
        label: `tcId ${t.tcId} (${t.comment || 'no comment'})`,
        publicKey: hex(g.publicKey.pk),
        message: hex(t.msg),
        signature: hex(t.sig),
        expectValid: t.result === 'valid',
      });
    }
  }
  const sc = JSON.parse(files.speccheck) as { message: string; pub_key: string; signature: string }[];
  sc.forEach((c, i) =>
    out.push({ source: 'speccheck', label: `case ${i}`, publicKey: hex(c.pub_key), message: hex(c.message), signature: hex(c.signature), expectValid: false }),
  );
  const zip = JSON.parse(files.zip215) as { vk_bytes: string; sig_bytes: string }[];
  zip.forEach((c, i) =>
    out.push({ source: 'zip215', label: `case ${i}`, publicKey: hex(c.vk_bytes), message: utf8('Zcash'), signature: hex(c.sig_bytes), expectValid: false }),
  );
  files.supercop
    .split('\n')
    .filter((l) => l !== '')
    .forEach((line, i) => {
      const [, pk, msg, sigAndMsg] = line.split(':');
      out.push({
        source: 'supercop',
        label: `line ${i + 1}`,
        publicKey: hex(pk!),
        message: hex(msg!),
        signature: hex(sigAndMsg!.slice(0, 128)),
        expectValid: true,
      });
    });
  return out;
}

export const describeEd25519Result = (r: Ed25519Result): string => (r.valid ? 'valid' : `invalid (${r.reason})`);

export interface SourceOutcome {
  source: Ed25519Source;
  total: number;
  matched: number;
  failures: string[];
}

/** Runs every vector through `engine` (all in flight at once) and tallies "N of M" per source. */
export async function runEd25519Suite(
  vectors: Ed25519Vector[],
  engine: Exclude<Ed25519Engine, 'auto'>,
): Promise<{ results: Ed25519Result[]; bySource: SourceOutcome[] }> {
  const results = await Promise.all(vectors.map((v) => verifyEd25519(v.publicKey, v.message, v.signature, { engine })));
  const bySource = (Object.keys(ED25519_EXPECTED_COUNTS) as Ed25519Source[]).map((source) => {
    const out: SourceOutcome = { source, total: 0, matched: 0, failures: [] };
    vectors.forEach((v, i) => {
      if (v.source !== source) return;
      out.total++;
      const r = results[i]!;
      if (r.valid === v.expectValid) out.matched++;
      else out.failures.push(`${v.label}: expected ${v.expectValid ? 'valid' : 'invalid'}, got ${describeEd25519Result(r)}`);
    });
    return out;
  });
  return { results, bySource };
}
