// Evidence-package folders (`chio evidence export`, chio-format.md §11.1) and
// loose NDJSON/JSON files. Each file is streamed once: its bytes feed the
// manifest hash and, for the known Chio files, the record splitter. The
// `manifest` check (contract §5, part 2 §5.3): every listed file's SHA-256 and
// size, the counts, and the manifest's fields of part 2 (package-manifest.ts);
// `read_boundary`; and the claims the verifier holds the receipts to (`scope`,
// receiptSemantics). Files the manifest does not list are not errors.
import { toHex } from '../bytes/hex';
import { createSha256, sha256Hex } from '../crypto/sha256';
import type { RecordRole } from '../verify/intake';
import type { LogSink } from '../verify/log-sink';
import type { PackageClaims } from '../verify/package-claims';
import { type Problem, makeProblem } from '../verdict/problems';
import type { PackageReport } from '../verdict/report';
import { MAX_QUERY_BYTES, type Manifest, type ManifestFindings, type QueryFile, checkReadBoundary, manifestFindings, readManifest } from './package-manifest';
import { type RecordEvent, isTextLogName, splitRecords } from './records';

/** A readable file: a Node file, a browser File, or bytes from a server. */
export interface SourceFile {
  /** Path relative to its package (or the name given for a loose file). */
  name: string;
  /**
   * The bytes in chunks. A chunk may be emptied or overwritten once the next
   * one is asked for: whoever keeps bytes across chunks copies them.
   */
  stream(): AsyncIterable<Uint8Array>;
  /** The same bytes with random access, where there is such a thing (a File in the browser). */
  blob?: Blob;
  /**
   * Reads the file as `readRecords` does, somewhere else: in the browser, a worker of its own,
   * so a large file's bytes never pass through the thread that holds the whole log (there, the
   * garbage collector leaves dead chunks in memory in proportion to that thread's heap).
   */
  readElsewhere?(job: ReadJob): AsyncGenerator<RecordEvent, FileBytes>;
}

/** What reading a file does: split its records (`split`, with `textless` as in SplitOptions), hash every byte (`hash`). */
export interface ReadJob {
  split: boolean;
  textless: boolean;
  hash: boolean;
}

/** A file's SHA-256 (of every byte when the job hashed) and size read. */
export interface FileBytes {
  sha256: string;
  bytes: number;
}

/** A folder: lists its files (relative paths, `/`-separated) and opens them. */
export interface SourceDir {
  /** Display path of the folder. */
  path: string;
  list(): Promise<string[]>;
  open(relativePath: string): SourceFile | null;
}

/** Known package files, in the order they are read (checkpoints first, so proofs can be checked as they arrive). */
export const PACKAGE_FILES: [string, RecordRole][] = [
  ['checkpoints.ndjson', 'checkpoint'],
  ['receipts.ndjson', 'tool'],
  ['child-receipts.ndjson', 'child'],
  ['inclusion-proofs.ndjson', 'proof'],
  ['checkpoint-publications.ndjson', 'publication'],
  ['checkpoint-witnesses.ndjson', 'witness'],
  ['checkpoint-consistency-proofs.ndjson', 'consistency'],
  ['checkpoint-equivocations.ndjson', 'equivocation'],
  ['capability-lineage.ndjson', 'lineage'],
];

/**
 * Rows the exporting server could not export, each named by table and seq (Receipt Audit's own
 * file, server/stored-row.ts; a package has it only when there are some). Not one of the
 * Chio files above: read after them when present.
 */
export const EXPORT_PROBLEMS_FILE: [string, RecordRole] = ['export-problems.ndjson', 'export-problem'];

const COUNT_OF_FILE: Record<string, string> = {
  'receipts.ndjson': 'toolReceipts',
  'child-receipts.ndjson': 'childReceipts',
  'checkpoints.ndjson': 'checkpoints',
  'capability-lineage.ndjson': 'capabilityLineage',
  'inclusion-proofs.ndjson': 'inclusionProofs',
};

/** The role a loose file's name suggests (a copy of a package file keeps its meaning). */
export function roleForFileName(name: string): RecordRole {
  const base = name.split(/[\\/]/).pop() ?? name;
  for (const [file, role] of [...PACKAGE_FILES, EXPORT_PROBLEMS_FILE]) if (base === file) return role;
  return isTextLogName(base) ? 'text' : 'auto';
}

interface FileStats {
  sha256: string;
  bytes: number;
  records: number;
}

/**
 * Streams one file through the verifier (when it holds records) while hashing
 * it. When the splitter stops early (a file that is not text), the rest is
 * still hashed if `hash` (a package file's manifest check needs every byte),
 * else it is not read at all.
 */
export async function streamFile(
  file: SourceFile,
  role: RecordRole | null,
  verifier: LogSink,
  space: string,
  displayName: string,
  hash = true,
): Promise<FileStats> {
  let records = 0;
  // Where the bytes can be read again, NDJSON records are not decoded here (lineage is read here).
  const job: ReadJob = { split: role !== null && role !== 'ignore', textless: file.blob !== undefined && role !== 'lineage', hash };
  const run = file.readElsewhere?.(job) ?? readRecords(file, job);
  let finished = false;
  try {
    for (;;) {
      const next = await run.next();
      if (next.done) {
        finished = true;
        return { ...next.value, records };
      }
      const ev = next.value;
      records++;
      if (ev.kind === 'error') {
        const message = ev.whole ? `${displayName} ${ev.message}` : ev.message;
        verifier.addProblem(makeProblem('parse_error', message, { file: displayName, line: ev.line }));
      } else {
        const at = file.blob && ev.start !== undefined && ev.end !== undefined ? { blob: file.blob, start: ev.start, end: ev.end } : undefined;
        await verifier.addRecord(ev.text, { file: displayName, line: ev.line, role: role!, space }, at);
      }
    }
  } finally {
    // Stopped early (the verifier failed, or was cancelled): the reader stops too.
    if (!finished) await run.return({ sha256: '', bytes: 0 });
  }
}

/**
 * Reads a file once: its records when `job.split`, while hashing it. When the
 * splitter stops early (a file that is not text), the rest is still hashed if
 * `job.hash`, else it is not read at all.
 */
export async function* readRecords(file: SourceFile, job: ReadJob): AsyncGenerator<RecordEvent, FileBytes> {
  const sha = createSha256();
  let bytes = 0;
  // Iterated by hand so that the splitter stopping early does not close the source.
  const source = file.stream()[Symbol.asyncIterator]();
  const take = async (): Promise<Uint8Array | null> => {
    const next = await source.next();
    if (next.done) return null;
    if (job.hash) sha.update(next.value);
    bytes += next.value.length;
    return next.value;
  };
  const tee: AsyncIterable<Uint8Array> = {
    async *[Symbol.asyncIterator]() {
      for (let chunk = await take(); chunk; chunk = await take()) yield chunk;
    },
  };
  if (job.split) yield* splitRecords(file.name, tee, { textless: job.textless });
  if (job.hash) while (await take());
  else await source.return?.();
  return { sha256: toHex(sha.digest()), bytes };
}

/** Unsafe manifest paths (absolute, `..`, backslashes) are refused rather than resolved. */
function isSafeRelativePath(p: string): boolean {
  if (p.length === 0 || p.startsWith('/') || p.includes('\\') || /^[A-Za-z]:/.test(p)) return false;
  return p.split('/').every((seg) => seg !== '..' && seg !== '.' && seg !== '');
}

/**
 * Loads an evidence-package folder into the verifier: its records, and its package checks as far
 * as manifest.json and query.json decide them (`manifest`: files, counts of lines, query.json,
 * disclosureNotice; `read_boundary`), with the claims the verifier holds the receipts to once
 * they are checked (unproven count, proofCoverage, receiptSemantics, `scope`).
 */
export async function loadPackage(dir: SourceDir, verifier: LogSink, space: string): Promise<void> {
  const listing = new Set(await dir.list());
  const problems: Problem[] = [];
  const manifestFile = listing.has('manifest.json') ? dir.open('manifest.json') : null;
  let manifest: ReturnType<typeof readManifest> | null = null;
  if (manifestFile) {
    manifest = readManifest(decodeText((await readSmall(manifestFile, Infinity))!));
    if (!manifest.ok) problems.push(makeProblem('manifest_mismatch', `manifest.json cannot be read: ${manifest.error}`, { file: 'manifest.json' }));
  }
  // query.json is read whole (and hashed from those bytes for the manifest), up to a size no query needs.
  const stats = new Map<string, FileStats>();
  const queryFile = listing.has('query.json') ? dir.open('query.json') : null;
  const queryBytes = queryFile ? await readSmall(queryFile, MAX_QUERY_BYTES) : null;
  if (queryBytes) stats.set('query.json', { sha256: sha256Hex(queryBytes), bytes: queryBytes.length, records: 0 });
  const query: QueryFile | null = !queryFile
    ? null
    : queryBytes === null
      ? { error: `query.json is over ${MAX_QUERY_BYTES} bytes, too large to be a query` }
      : { text: decodeText(queryBytes) };

  for (const [name, role] of [...PACKAGE_FILES, EXPORT_PROBLEMS_FILE]) {
    const file = listing.has(name) ? dir.open(name) : null;
    if (file) stats.set(name, await streamFile(file, role, verifier, space, name));
  }

  let manifestStatus: 'pass' | 'fail' | 'skipped' = manifest ? 'pass' : 'skipped';
  let detail = manifest ? '' : 'no manifest.json in the folder';
  const mismatch = (message: string, file?: string) => {
    manifestStatus = 'fail';
    if (!detail) detail = message;
    problems.push(makeProblem('manifest_mismatch', message, file ? { file } : {}));
  };
  if (manifest && !manifest.ok) {
    manifestStatus = 'fail';
    detail = 'manifest.json cannot be read';
  }
  const read = manifest?.ok ? manifest.manifest : null;
  if (read) {
    for (const entry of read.files) {
      if (!isSafeRelativePath(entry.path)) {
        mismatch(`manifest.json lists an unsafe path ${JSON.stringify(entry.path)}`);
        continue;
      }
      let st = stats.get(entry.path);
      if (!st) {
        const file = listing.has(entry.path) ? dir.open(entry.path) : null;
        if (!file) {
          mismatch(`${entry.path} is listed in manifest.json but is not in the folder`, entry.path);
          continue;
        }
        st = await streamFile(file, null, verifier, space, entry.path);
      }
      if (st.sha256 !== entry.sha256.toLowerCase()) mismatch(`${entry.path}: SHA-256 is ${st.sha256}, manifest.json says ${entry.sha256}`, entry.path);
      if (BigInt(st.bytes) !== entry.bytes) mismatch(`${entry.path}: ${st.bytes} bytes, manifest.json says ${entry.bytes}`, entry.path);
    }
    for (const [file, countName] of Object.entries(COUNT_OF_FILE)) {
      const expected = read.counts.get(countName);
      const st = stats.get(file);
      if (expected === undefined) continue;
      const actual = BigInt(st?.records ?? 0);
      if (actual !== expected) mismatch(`manifest.json counts ${expected} ${countName}, ${file} holds ${actual}`, file);
    }
  }
  const findings = manifestFindings(read, query);
  if (read) for (const m of findings.mismatches) mismatch(m, m.startsWith('query.json') ? 'query.json' : 'manifest.json');
  // A folder with neither a manifest nor a query.json states nothing to hold a boundary to.
  const boundary = manifest || query ? checkReadBoundary(findings.claims.scope, read?.tree.has('disclosureNotice') === true) : null;
  if (boundary) problems.push(...boundary.problems);
  const claims: PackageClaims = { ...findings.claims, toolRecords: stats.get('receipts.ndjson')?.records ?? 0 };
  if (read) claims.covered = covered(read, query !== null && !('error' in query), findings);
  const checks: PackageReport['checks'] = { manifest: manifestStatus, ...(boundary ? { read_boundary: boundary.result.status } : {}) };
  const details: NonNullable<PackageReport['details']> = {
    ...(detail ? { manifest: detail } : {}),
    ...(boundary?.result.detail !== undefined ? { read_boundary: boundary.result.detail } : {}),
  };
  verifier.addPackage({ path: dir.path, space, checks, ...(Object.keys(details).length ? { details } : {}), claims }, problems);
}

/** What the loader's part of a passing `manifest` covered, in words. */
function covered(m: Manifest, queryCompared: boolean, findings: ManifestFindings): string[] {
  const out = [`${m.files.length} listed file${m.files.length === 1 ? '' : 's'} match`];
  if ([...Object.values(COUNT_OF_FILE), 'uncheckpointedReceipts'].some((name) => m.counts.has(name))) out.push('counts match');
  if (queryCompared) out.push('query.json = manifest query');
  if (findings.claims.scope && !('error' in findings.claims.scope.query) && findings.claims.scope.query.readBoundary?.kind === 'tenant_scoped')
    out.push('disclosure notice canonical');
  return out;
}

/** A small file's bytes, or null when it is over `maxBytes` (read no further). */
async function readSmall(file: SourceFile, maxBytes: number): Promise<Uint8Array | null> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of file.stream()) {
    size += chunk.length;
    if (size > maxBytes) return null;
    parts.push(chunk.slice()); // kept past the next chunk: a copy
  }
  return new Uint8Array(await new Blob(parts as BlobPart[]).arrayBuffer());
}

const decodeText = (bytes: Uint8Array): string => new TextDecoder('utf-8', { fatal: false }).decode(bytes);

/** Loads one loose NDJSON/JSON file into the verifier. */
export async function loadFile(file: SourceFile, verifier: LogSink, space: string, displayName = file.name): Promise<void> {
  await streamFile(file, roleForFileName(file.name), verifier, space, displayName, false);
}
