// `receipt-audit verify <path>… [--trust-key HEX]… [--trust-file FILE] [--hmac-key HEX] [--diff FILE] [--json]`
// (contract §8). Exit 0 when the log is ok, 1 when anything failed, 2 for
// usage errors and unreadable or unrecognized input (one clear line on stderr).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LogVerifier } from '../../lib/verify/log-verifier';
import { verifyLog } from '../../lib/verify/verify-log';
import { reportJsonParts } from '../../lib/verify/report-json';
import type { VerificationReport } from '../../lib/verdict/report';
import type { ReceiptView } from '../../lib/verdict/receipt-view';
import { RefusedSource, loadSources } from '../../lib/sources/load-sources';
import { type PinnedKey, TrustStore } from '../../lib/trust/trust-store';
import { parseTrustEntries, toPinnedKeys } from '../../lib/trust/trust-file';
import { formatSummary } from './format';
import { nodeChecker } from './node-checker';
import { nodeInputs, nodePlatform } from './node-platform';
import { UsageError, readOptional } from './node-source';
import { sha256Ready } from '../../lib/crypto/sha256';
import { fromHex } from '../../lib/bytes/hex';
import { DIALECT_FAMILIES } from '../../lib/dialects/families';
import type { DialectOptions } from '../../lib/verdict/family';
import { diffFingerprint } from '../../lib/dialects/codewhale/review';
import { INGEST_USAGE, ingestMain } from './ingest';

const USAGE = `Usage: receipt-audit verify <path>... [--trust-key HEX]... [--trust-file FILE]
                             [--allow-unpinned] [--hmac-key HEX]
                             [--diff FILE [--diff-max-chars N]] [--json]

Verifies Chio receipt logs: evidence-package folders, NDJSON/JSON files and
Chio SQLite receipt stores. Several paths are verified as one log. Receipts in
envelopes load too: chio-bridge outcomes and exports, MCP tool results, Claude
Code stream-json and Codex exec --json transcripts (.jsonl). ZeroClaw and
CodeWhale receipts load with them: tool-call records, chat transcripts
(JSON/NDJSON), runtime-trace logs, replies and terminal logs (.txt, .log,
.md), CodeWhale review and turn receipts.

  --trust-key HEX    pin a kernel key (repeatable); receipts and checkpoints
                     signed by other keys fail signer_trusted
  --trust-file FILE  pin keys from a JSON list of
                     {"key", "label"?, "not_before"?, "not_after"?}
                     (validity window in Unix seconds or ISO 8601, inclusive)
                     With no key pinned no receipt is verified: signatures
                     show the log is intact, not who signed it; receipts are
                     unverified and signer_not_pinned fails the log (exit 1)
  --allow-unpinned   make signer_not_pinned a warning, for pipelines that
                     check integrity only (receipts stay unverified)
  --hmac-key HEX     ZeroClaw's HMAC-SHA256 key, to recompute receipt tags
                     (the runtime keeps its key in memory only: without it
                     the signature check is skipped, never passed)
  --diff FILE        the git diff CodeWhale review receipts were written for
                     (as \`git diff\` printed it); without it their
                     diff_fingerprint check is skipped
  --diff-max-chars N the --max-chars the review ran with (default 200000)
  --json             print the report as one JSON object (contract §8)

Exit status: 0 the log is ok, 1 something failed, 2 usage or unreadable input.`;

export { UsageError };

interface Args {
  paths: string[];
  trustKeys: PinnedKey[];
  trustFiles: string[];
  json: boolean;
  allowUnpinned: boolean;
  hmacKey?: string;
  diff?: string;
  diffMaxChars?: number;
}

function parseArgs(argv: string[]): Args | 'help' {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') return 'help';
  const [command, ...rest] = argv;
  if (command !== 'verify')
    throw new UsageError(`unknown command ${JSON.stringify(command)}; try: receipt-audit verify <path>... or receipt-audit ingest <path>... --clickhouse URL`);
  const args: Args = { paths: [], trustKeys: [], trustFiles: [], json: false, allowUnpinned: false };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    const value = (): string => {
      const v = rest[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === '--json') args.json = true;
    else if (a === '--trust-key') args.trustKeys.push({ key: value() });
    else if (a.startsWith('--trust-key=')) args.trustKeys.push({ key: a.slice('--trust-key='.length) });
    else if (a === '--trust-file') args.trustFiles.push(value());
    else if (a === '--allow-unpinned') args.allowUnpinned = true;
    else if (a === '--hmac-key' || a.startsWith('--hmac-key=')) args.hmacKey = a.includes('=') ? a.slice(a.indexOf('=') + 1) : value();
    else if (a === '--diff' || a.startsWith('--diff=')) args.diff = a.includes('=') ? a.slice(a.indexOf('=') + 1) : value();
    else if (a === '--diff-max-chars' || a.startsWith('--diff-max-chars=')) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : value();
      if (!/^[1-9][0-9]{0,9}$/.test(v)) throw new UsageError(`--diff-max-chars needs a positive whole number, not ${JSON.stringify(v)}`);
      args.diffMaxChars = Number(v);
    } else if (a === '--help' || a === '-h') return 'help';
    else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
    else args.paths.push(a);
  }
  if (args.paths.length === 0) throw new UsageError('verify needs at least one path');
  if (args.diffMaxChars !== undefined && args.diff === undefined) throw new UsageError('--diff-max-chars goes with --diff');
  return args;
}

async function readTrustFile(file: string): Promise<PinnedKey[]> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read trust file ${file}: ${(e as Error).message}`);
  }
  const parsed = parseTrustEntries(data);
  if (!parsed.ok) throw new UsageError(`trust file ${file}: ${parsed.error}`);
  return toPinnedKeys(parsed.entries);
}

/** The key and diff for ZeroClaw and CodeWhale receipts, from the command line's options. */
async function dialectOptions(args: Args): Promise<DialectOptions> {
  const options: DialectOptions = {};
  if (args.hmacKey !== undefined) {
    const key = args.hmacKey.length > 0 ? fromHex(args.hmacKey) : null;
    if (!key)
      throw new UsageError(`--hmac-key must be the key as hex (ZeroClaw's is 32 bytes, 64 hex digits), not ${JSON.stringify(args.hmacKey.slice(0, 80))}`);
    options.hmacKey = key;
  }
  if (args.diff !== undefined) {
    const bytes = await readOptional(path.resolve(args.diff));
    if (!bytes) throw new UsageError(`cannot read the diff ${args.diff}`);
    options.diff = { name: path.basename(args.diff), fingerprint: diffFingerprint(bytes, args.diffMaxChars) };
  }
  return options;
}

/**
 * Verifies `paths` as one log, the way the command line does. Throws UsageError for unreadable or
 * unknown input. `workers`: 0 checks inline, N in N worker threads (default: node-checker.ts's choice).
 */
export async function verifyPaths(
  paths: string[],
  trust: TrustStore,
  dialect: DialectOptions = {},
  allowUnpinned = false,
  workers?: number,
): Promise<VerificationReport> {
  const { inputs, bytes } = await nodeInputs(paths);
  const verifier = new LogVerifier({ trust, dialect, families: DIALECT_FAMILIES, allowUnpinned, checker: await nodeChecker(bytes, workers) });
  return usageOnRefusal(verifyLog(verifier, (sink) => loadSources(inputs, sink, { platform: nodePlatform })));
}

/** Reads every path into one verifier, not yet finished (tests also read its checkpoint entries and rows). */
export async function loadPaths(
  paths: string[],
  trust: TrustStore,
  onViews?: (views: ReceiptView[]) => void,
  dialect: DialectOptions = {},
  allowUnpinned = false,
  workers?: number,
): Promise<LogVerifier> {
  const { inputs, bytes } = await nodeInputs(paths);
  await sha256Ready();
  const checker = await nodeChecker(bytes, workers);
  const verifier = new LogVerifier({ trust, dialect, families: DIALECT_FAMILIES, allowUnpinned, checker, ...(onViews ? { onViews } : {}) });
  try {
    await usageOnRefusal(loadSources(inputs, verifier, { platform: nodePlatform }));
  } catch (e) {
    verifier.close();
    throw e;
  }
  return verifier;
}

/** A store the loader refused ends the command as a usage error, as any unreadable input does. */
async function usageOnRefusal<T>(run: Promise<T>): Promise<T> {
  try {
    return await run;
  } catch (e) {
    if (!(e instanceof RefusedSource)) throw e;
    throw new UsageError(e.reason === 'not-a-store' ? `unknown format: ${e.message}` : e.message);
  }
}

export async function main(argv: string[], out = process.stdout, err = process.stderr): Promise<number> {
  if (argv[0] === 'ingest') return ingestMain(argv.slice(1), out, err);
  try {
    const args = parseArgs(argv);
    if (args === 'help') {
      out.write(`${USAGE}\n\n${INGEST_USAGE}\n`);
      return argv.length === 0 ? 2 : 0;
    }
    const keys = [...args.trustKeys];
    for (const f of args.trustFiles) keys.push(...(await readTrustFile(f)));
    const trust = TrustStore.create(keys);
    if (!trust.ok) throw new UsageError(trust.error);

    const report = await verifyPaths(args.paths, trust.store, await dialectOptions(args), args.allowUnpinned);
    if (args.json) {
      // In pieces: a million receipts' JSON is longer than one string can be.
      for (const part of reportJsonParts(report)) if (!out.write(part)) await new Promise((resolve) => out.once('drain', resolve));
      out.write('\n');
    } else out.write(formatSummary(report, args.paths));
    return report.ok ? 0 : 1;
  } catch (e) {
    if (e instanceof UsageError) {
      err.write(`receipt-audit: ${e.message}\n`);
      return 2;
    }
    err.write(`receipt-audit: ${(e as Error).stack ?? String(e)}\n`);
    return 2;
  }
}
