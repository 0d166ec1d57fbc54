// Server side only: `POST /v1/evidence/export` (chio-format.md §11.2) and the
// evidence-package files of the served store for direct download (§11.1), as
// framework-free handlers (the Next routes and the tests call the same code).
// Order: auth → method → input → store → bytes. The server only serves bytes;
// every proof it computes is re-verified by whoever reads it.
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, existsSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parseExportRequest } from '../../lib/query/evidence-query';
import { checkBearer } from './auth';
import { exportBundleChunks, writeEvidencePackage } from './export';
import { StoreEvidence } from './evidence';
import { type ReceiptApiEnv, storeFileOf } from './handle-receipt-query';
import { JSON_HEADERS, badParameters, errorResponse, internalError, methodNotAllowed, storeUnavailable } from './http';
import { getStore } from './receipt-query';
import { NOT_A_FLEET, fleetExportResponse, fleetUrlOf } from './fleet/handle-fleet';

const MAX_BODY_BYTES = 64 * 1024;

/** `POST /v1/evidence/export`: `{query?, requireProofs?}` → `{bundle, transparency}`, streamed. */
export async function handleEvidenceExport(request: Request, env: ReceiptApiEnv): Promise<Response> {
  try {
    const denied = checkBearer(request, env.RECEIPT_API_TOKEN);
    if (denied) return denied;
    if (request.method !== 'POST') return methodNotAllowed('POST');
    const raw = await request.text();
    if (raw.length > MAX_BODY_BYTES) return badParameters([{ param: 'body', message: `must be at most ${MAX_BODY_BYTES} bytes` }]);
    let body: unknown = {};
    if (raw.trim() !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        return badParameters([{ param: 'body', message: 'is not valid JSON' }]);
      }
    }
    const parsed = parseExportRequest(body);
    if (!parsed.ok) return badParameters(parsed.issues);
    const fleet = fleetUrlOf(env);
    if (fleet) return await fleetExportResponse(fleet, parsed.request.query, parsed.request.requireProofs);
    if (parsed.request.query.kernelKey !== undefined) return badParameters([{ param: 'query.kernelKey', message: NOT_A_FLEET }]);
    const file = storeFileOf(env);
    const opened = getStore(file);
    if (!opened.ok) return storeUnavailable(opened.detail);
    const { db } = opened.store;
    if (parsed.request.requireProofs) {
      const unproven = new StoreEvidence(db, parsed.request.query).uncheckpointedCount();
      if (unproven > 0) {
        return errorResponse(409, 'proofs_unavailable', `${unproven} receipt(s) of this query are not covered by a checkpoint yet`, { param: 'requireProofs' });
      }
    }
    const chunks = exportBundleChunks(db, file, parsed.request.query);
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      cancel() {
        chunks.return(undefined);
      },
    });
    return new Response(stream, { status: 200, headers: JSON_HEADERS });
  } catch (e) {
    console.error('POST /v1/evidence/export failed:', e);
    return internalError();
  }
}

const CONTENT_TYPES: Record<string, string> = {
  '.ndjson': 'application/x-ndjson; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The whole-store package of `file`, built once per store state into
 * `RECEIPT_CACHE_DIR` (default data/cache)/packages/<hash>/ (the store may be large, so it is
 * not rebuilt per request).
 */
/** Bumped whenever the exported package's content changes for the same store. */
const EXPORT_FORMAT = 2;

function packageDirFor(file: string, signature: string, env: ReceiptApiEnv): string {
  // The exporter's format is part of the key: a newer exporter (v2 consistency records, a read
  // boundary, signed lineage) must not serve a package an older one cached for the same store.
  const key = createHash('sha256').update(`${file}\n${signature}\nexport-format ${EXPORT_FORMAT}`).digest('hex').slice(0, 32);
  const dir = path.join(env.RECEIPT_CACHE_DIR ? path.resolve(env.RECEIPT_CACHE_DIR) : path.join(process.cwd(), 'data', 'cache'), 'packages', key);
  if (existsSync(path.join(dir, 'manifest.json'))) return dir;
  const opened = getStore(file);
  if (!opened.ok) throw new Error(opened.detail);
  // Synchronous, so concurrent requests in this process cannot interleave; the writer renames atomically.
  writeEvidencePackage(opened.store.db, file, dir, {}, Math.floor(statSync(file).mtimeMs / 1000));
  return dir;
}

/**
 * `GET /v1/evidence/package` lists the files; `GET /v1/evidence/package/<name>`
 * downloads one. Only the names the manifest lists (and the manifest itself) are served.
 */
export async function handleEvidencePackage(request: Request, env: ReceiptApiEnv, name: string | null): Promise<Response> {
  try {
    const denied = checkBearer(request, env.RECEIPT_API_TOKEN);
    if (denied) return denied;
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET');
    if (fleetUrlOf(env)) return errorResponse(404, 'not_found', 'this server serves a fleet: search it with /v1/receipts/query (GET /v1/fleet/kernels lists its kernels), or export one kernel with POST /v1/evidence/export');
    const file = storeFileOf(env);
    const opened = getStore(file);
    if (!opened.ok) return storeUnavailable(opened.detail);
    const dir = packageDirFor(file, opened.store.signature, env);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { files: { path: string; sha256: string; bytes: number }[] };
    if (name === null) {
      const files = [{ path: 'manifest.json', bytes: statSync(path.join(dir, 'manifest.json')).size }, ...manifest.files];
      const base = new URL(request.url).pathname.replace(/\/$/, '');
      const index = { files: files.map((f) => ({ ...f, url: `${base}/${encodeURIComponent(f.path)}` })) };
      return new Response(JSON.stringify(index), { status: 200, headers: JSON_HEADERS });
    }
    const listed = name === 'manifest.json' || manifest.files.some((f) => f.path === name);
    if (!listed || name.includes('/') || name.includes('\\')) return errorResponse(404, 'not_found', `the package has no file ${JSON.stringify(name)}`, { param: 'file' });
    // Streamed from disk: a million receipts make a 1.4 GB receipts.ndjson, which must not be
    // read into memory per request (nor keep the page waiting for its first byte meanwhile).
    // Opened here, so a missing file is a 500 before any header and the length is the file's.
    const fd = openSync(path.join(dir, name), 'r');
    const type = CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream';
    const headers = { ...JSON_HEADERS, 'content-type': type, 'content-length': String(fstatSync(fd).size), 'content-disposition': `attachment; filename="${name}"` };
    if (request.method === 'HEAD') {
      closeSync(fd);
      return new Response(null, { status: 200, headers });
    }
    return new Response(Readable.toWeb(createReadStream('', { fd })) as ReadableStream<Uint8Array>, { status: 200, headers });
  } catch (e) {
    console.error('GET /v1/evidence/package failed:', e);
    return internalError();
  }
}
