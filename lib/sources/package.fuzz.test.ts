// Fuzz: loadPackage on real evidence packages held in memory, with files dropped, truncated,
// bit-flipped or replaced by garbage, manifest.json mutated, and unlisted files added. It never
// throws, the report adds up, and the `manifest` check passes exactly when every file the
// manifest lists is there with that SHA-256 and size (checked here with node:crypto), the counts
// match the files, the count of receipts without a proof is right, and the fields of contract
// part 2 hold (query.json = manifest.query, proofCoverage, disclosureNotice).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import canonicalizeReference from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzParams, fuzzTimeout } from '../../test/support/fuzz';
import { type JsonEdit, jsonEdit, mutateJson } from '../../test/support/json-mutate';
import { testdataPath } from '../../test/support/testdata';
import { parseJson } from '../json/parse';
import { type JsonObject, type JsonValue, isJsonArray, isJsonNumber, isJsonObject } from '../json/value';
import { LogVerifier } from '../verify/log-verifier';
import type { VerificationReport } from '../verdict/report';
import { type SourceDir, loadPackage } from './package';

type Files = Map<string, Uint8Array>;

function readPackage(rel: string): Files {
  const dir = testdataPath(rel);
  return new Map(
    readdirSync(dir)
      .sort()
      .map((name) => [name, new Uint8Array(readFileSync(`${dir}/${name}`))]),
  );
}
const MINIMAL = readPackage('chio/gen-a-upstream/examples/hello-receipt-verify/fixtures/minimal-evidence');
const CORPUS_GOOD = readPackage('corpus/good');
/** The Gen B package of 2026-09, whose lineage row carries a signed capability token. */
const SIGNED_LINEAGE = readPackage('chio/realworld-2026-09/minimal-evidence');

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

function memoryDir(files: Files, chunkSize: number): SourceDir {
  return {
    path: 'pkg',
    list: async () => [...files.keys()],
    open: (rel) => {
      const bytes = files.get(rel);
      return bytes ? { name: rel, stream: () => chunked(bytes, chunkSize) } : null;
    },
  };
}

type Mutation =
  | { op: 'drop'; file: number }
  | { op: 'truncate'; file: number; at: number }
  | { op: 'flip'; file: number; at: number; bit: number }
  | { op: 'garbage'; file: number; bytes: Uint8Array }
  | { op: 'manifest'; edits: JsonEdit[] }
  | { op: 'extra'; name: string; bytes: Uint8Array };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('drop' as const), file: fc.nat() }),
  fc.record({ op: fc.constant('truncate' as const), file: fc.nat(), at: fc.nat() }),
  fc.record({ op: fc.constant('flip' as const), file: fc.nat(), at: fc.nat(), bit: fc.nat(7) }),
  fc.record({ op: fc.constant('garbage' as const), file: fc.nat(), bytes: fc.uint8Array({ maxLength: 200 }) }),
  fc.record({ op: fc.constant('manifest' as const), edits: fc.array(jsonEdit, { minLength: 1, maxLength: 3 }) }),
  fc.record({
    op: fc.constant('extra' as const),
    name: fc.constantFrom('notes.txt', 'sub/dir/x.ndjson', 'expected.json'),
    bytes: fc.uint8Array({ maxLength: 50 }),
  }),
);

function apply(files: Files, m: Mutation): Files {
  const out = new Map(files);
  const names = [...out.keys()];
  if (m.op === 'manifest') {
    const manifest = out.get('manifest.json');
    const text = manifest && mutateJson(new TextDecoder().decode(manifest), m.edits);
    if (text) out.set('manifest.json', new TextEncoder().encode(text));
    return out;
  }
  if (m.op === 'extra') return out.set(m.name, m.bytes);
  if (names.length === 0) return out;
  const name = names[m.file % names.length]!;
  const bytes = out.get(name)!;
  if (m.op === 'drop') out.delete(name);
  else if (m.op === 'truncate') out.set(name, bytes.subarray(0, m.at % (bytes.length + 1)));
  else if (m.op === 'garbage') out.set(name, m.bytes);
  else if (bytes.length > 0) {
    const b = bytes.slice();
    b[m.at % b.length]! ^= 1 << m.bit;
    out.set(name, b);
  }
  return out;
}

/** Records in an NDJSON file as the manifest counts them: lines that are not blank (a BOM is blank). */
function countLines(bytes: Uint8Array | undefined): number {
  if (!bytes) return 0;
  let n = 0;
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    const line = bytes.subarray(start === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : start, end);
    if (line.some((c) => c !== 0x20 && c !== 0x09 && c !== 0x0d)) n++;
    start = end + 1;
  }
  return n;
}

const COUNTED: Record<string, string> = {
  toolReceipts: 'receipts.ndjson',
  childReceipts: 'child-receipts.ndjson',
  checkpoints: 'checkpoints.ndjson',
  capabilityLineage: 'capability-lineage.ndjson',
  inclusionProofs: 'inclusion-proofs.ndjson',
};

const integer = (v: JsonValue | undefined) => (isJsonNumber(v) && v.isIntegerLiteral ? BigInt(v.raw) : null);

function manifestCounts(files: Files): JsonObject | null {
  const bytes = files.get('manifest.json');
  const parsed = bytes && parseJson(new TextDecoder().decode(bytes));
  const counts = parsed?.ok && isJsonObject(parsed.value) ? parsed.value.get('counts') : undefined;
  return isJsonObject(counts) ? counts : null;
}

/**
 * The manifest's `uncheckpointedReceipts` (tool receipts without an inclusion proof, which the
 * verifier also checks under `manifest`): true when absent or still right, false when wrong,
 * null when the files it depends on changed (then this reference cannot tell).
 */
function unprovenCountHolds(original: Files, mutated: Files): boolean | null {
  const value = integer(manifestCounts(mutated)?.get('uncheckpointedReceipts'));
  if (value === null) return true;
  const same = (name: string) => Buffer.compare(original.get(name) ?? new Uint8Array(), mutated.get(name) ?? new Uint8Array()) === 0;
  if (!['receipts.ndjson', 'inclusion-proofs.ndjson', 'checkpoints.ndjson'].every(same)) return null;
  return value === integer(manifestCounts(original)!.get('uncheckpointedReceipts'));
}

/**
 * The reference for the `manifest` check (contract §5): every listed file present with the
 * listed SHA-256 (node:crypto) and size, and every count equal to the file's non-blank lines.
 * The manifest is read with parseJson (fuzzed against JSON.parse on its own) because only
 * integer literals count as sizes and counts.
 */
function manifestHolds(files: Files): boolean {
  const bytes = files.get('manifest.json');
  const parsed = bytes && parseJson(new TextDecoder().decode(bytes));
  if (!parsed?.ok || !isJsonObject(parsed.value)) return false;
  const list = parsed.value.get('files');
  if (!isJsonArray(list)) return false;
  const filesMatch = list.every((f) => {
    if (!isJsonObject(f)) return false;
    const path = f.get('path');
    const sha = f.get('sha256');
    const content = typeof path === 'string' ? files.get(path) : undefined;
    return (
      content !== undefined &&
      typeof sha === 'string' &&
      sha.toLowerCase() === createHash('sha256').update(content).digest('hex') &&
      integer(f.get('bytes')) === BigInt(content.length)
    );
  });
  const counts = parsed.value.get('counts');
  const countsMatch =
    !isJsonObject(counts) ||
    Object.entries(COUNTED).every(([name, file]) => {
      const expected = integer(counts.get(name));
      return expected === null || expected === BigInt(countLines(files.get(file)));
    });
  return filesMatch && countsMatch;
}

/**
 * The reference for the manifest fields of contract part 2 §5.3: true when they hold, false
 * when one is wrong, null when this reference cannot tell (receiptSemantics needs the receipts'
 * checks; a disclosure notice on a tenant-scoped query needs the canonical text). query.json and
 * manifest.query are compared with the `canonicalize` package (numbers here are small).
 */
function part2Holds(files: Files): boolean | null {
  const text = (name: string) => {
    const b = files.get(name);
    return b === undefined ? undefined : new TextDecoder().decode(b);
  };
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(text('manifest.json')!) as Record<string, unknown>;
  } catch {
    return null;
  }
  const query = manifest.query as { readBoundary?: { kind?: unknown } } | undefined;
  const queryText = text('query.json');
  if (queryText !== undefined) {
    try {
      if (canonicalizeReference(JSON.parse(queryText)) !== canonicalizeReference(query)) return false;
    } catch {
      return false;
    }
  }
  const tenantScoped = typeof query === 'object' && query !== null && query.readBoundary?.kind === 'tenant_scoped';
  if ('disclosureNotice' in manifest) {
    if (!tenantScoped) return false;
  } else if (tenantScoped) return false;
  const counts = (manifest.counts ?? {}) as Record<string, unknown>;
  const isU64 = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  if ('proofCoverage' in manifest) {
    const pc = manifest.proofCoverage as Record<string, unknown> | null;
    const [c, u] = [pc?.checkpointedReceipts, pc?.uncheckpointedReceipts];
    if (!isU64(c) || !isU64(u)) return false;
    const unproven = isU64(counts.uncheckpointedReceipts) ? (counts.uncheckpointedReceipts as number) : null;
    const tools = isU64(counts.toolReceipts) ? (counts.toolReceipts as number) : null;
    if (unproven === null || tools === null) return null;
    if (u !== unproven || c !== Math.max(0, tools - unproven)) return false;
  }
  if ('receiptSemantics' in manifest || tenantScoped) return null;
  return true;
}

async function load(files: Files, chunkSize: number): Promise<VerificationReport> {
  // Integrity only (the packages are signed by three different kernels): no key is pinned, and
  // signer_not_pinned is a warning, as under the CLI's --allow-unpinned (part 2 §11).
  const v = new LogVerifier({ allowUnpinned: true });
  await loadPackage(memoryDir(files, chunkSize), v, 'pkg');
  const report = await v.finish();
  const { summary } = report;
  expect(summary.verified + summary.failed + summary.unverified).toBe(summary.receipts);
  expect(report.packages).toHaveLength(1);
  return report;
}

describe('loadPackage on mutated real packages', () => {
  it('the unmutated packages pass (or the properties below would prove nothing)', async () => {
    for (const files of [MINIMAL, CORPUS_GOOD, SIGNED_LINEAGE]) {
      expect(manifestHolds(files)).toBe(true);
      // The reference cannot recompute receiptSemantics, which the 2026-09 package states: it says null, never false.
      expect(part2Holds(files)).toBe(files === SIGNED_LINEAGE ? null : true);
      const report = await load(files, 4096);
      expect(report.packages[0]!.checks.manifest).toBe('pass');
      // The Gen A package predates signed lineage: its row has no provenance, a downgrade (contract part 2 §5.3.1), and no other error.
      expect(report.problems.filter((p) => p.severity === 'error' && p.code !== 'lineage_downgraded')).toEqual([]);
      expect(report.ok).toBe(files !== MINIMAL);
    }
  });

  const property = (files: Files) =>
    fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 5000 }), async (mutations, chunkSize) => {
      const mutated = mutations.reduce(apply, files);
      const report = await load(mutated, chunkSize);
      const status = report.packages[0]!.checks.manifest;
      if (!mutated.has('manifest.json')) expect(status).toBe('skipped');
      else {
        const holds = manifestHolds(mutated);
        const unproven = unprovenCountHolds(files, mutated);
        const part2 = part2Holds(mutated);
        if (status === 'pass') expect(holds && unproven !== false && part2 !== false, 'manifest passed although the reference finds it wrong').toBe(true);
        if (holds && unproven === true && part2 === true) expect(status, 'the reference finds the manifest right').toBe('pass');
      }
      if (status === 'fail') expect(report.ok).toBe(false);
    });

  it(
    'the upstream minimal evidence package: never throws, and `manifest` passes exactly when the files match it',
    async () => {
      await fc.assert(property(MINIMAL), fuzzParams(300, { caseTimeoutMs: 60_000 }));
    },
    fuzzTimeout(),
  );

  it(
    'the 2026-09 package with a signed lineage row: the same',
    async () => {
      await fc.assert(property(SIGNED_LINEAGE), fuzzParams(100, { caseTimeoutMs: 60_000 }));
    },
    fuzzTimeout(),
  );

  it(
    'the corpus package (280 receipts, 200 proofs): the same',
    async () => {
      await fc.assert(property(CORPUS_GOOD), fuzzParams(10, { caseTimeoutMs: 60_000 }));
    },
    fuzzTimeout(),
  );
});
