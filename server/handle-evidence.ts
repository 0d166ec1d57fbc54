// Server side only: `POST /v1/evidence/export` (chio-format.md §11.2) and the
// evidence-package files of the served store for direct download (§11.1), as
// framework-free handlers (the Next routes and the tests call the same code).
// Order: auth → method → input → store → bytes. The server only serves bytes;
// every proof it computes is re-verified by whoever reads it.
import { closeSync, createReadStream, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { readCapped } from '../lib/bytes/read-capped';
import { parseJson } from '../lib/json/parse';
import { parseExportRequest } from '../lib/query/evidence-query';
import { checkBearer } from './auth';
import { MAX_BUNDLE_BYTES, buildExportBundle } from './store/export';
import { type ReceiptApiEnv, storeFileOf } from './handle-receipt-query';
import { JSON_HEADERS, badParameters, errorResponse, internalError, malformedPercentEncoding, malformedUrl, methodNotAllowed, storeUnavailable } from './http';
import { packageFor } from './store/package-cache';
import { logServerError, requestLabel } from './redact';
import { closeReader, getStore, openReader, readerChanged } from './store/store-handle';
import { NOT_A_FLEET, fleetExportResponse, fleetUrlOf } from './fleet/handle-fleet';

/** The largest export request body: 64 KiB (a query is a few hundred bytes). */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The request body as JSON: at most MAX_BODY_BYTES (the stream is cancelled past it, never
 * buffered whole), UTF-8, one JSON text by our lossless parser (duplicate keys refused: two
 * readers of `{"query":{…},"query":{…}}` would export different receipts). Empty is `{}`.
 */
async function readBody(request: Request): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const refuse = (status: number, message: string) => ({
    ok: false as const,
    response: errorResponse(status, 'invalid_parameter', `body: ${message}`, { param: 'body' }),
  });
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) return refuse(413, `must be at most ${MAX_BODY_BYTES} bytes`);
  const bytes = request.body ? await readCapped(request.body, MAX_BODY_BYTES) : new Uint8Array(0);
  if (bytes === null) return refuse(413, `must be at most ${MAX_BODY_BYTES} bytes`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse(400, 'is not UTF-8');
  }
  if (text.trim() === '') return { ok: true, value: {} };
  const parsed = parseJson(text);
  if (!parsed.ok) return refuse(400, `is not valid JSON: ${parsed.issue.message} at ${parsed.issue.path}`);
  // Checked losslessly above; the request parser reads plain values (its numbers are validated there).
  return { ok: true, value: JSON.parse(text) as unknown };
}

/** `POST /v1/evidence/export`: `{query?, requireProofs?}` → `{bundle, transparency}`. */
export async function handleEvidenceExport(request: Request, env: ReceiptApiEnv): Promise<Response> {
  try {
    const denied = checkBearer(request, env.RECEIPT_API_TOKEN);
    if (denied) return denied;
    if (malformedPercentEncoding(request.url)) return malformedUrl();
    if (request.method !== 'POST') return methodNotAllowed('POST');
    const body = await readBody(request);
    if (!body.ok) return body.response;
    const parsed = parseExportRequest(body.value);
    if (!parsed.ok) return badParameters(parsed.issues);
    const fleet = fleetUrlOf(env);
    if (fleet) return await fleetExportResponse(fleet, parsed.request.query, parsed.request.requireProofs);
    if (parsed.request.query.kernelKey !== undefined) return badParameters([{ param: 'query.kernelKey', message: NOT_A_FLEET }]);
    const file = storeFileOf(env);
    // A connection of its own: the bundle is built a slice at a time, giving other requests their turn.
    const opened = openReader(file);
    if (!opened.ok) return storeUnavailable(opened.detail);
    let result: Awaited<ReturnType<typeof buildExportBundle>>;
    try {
      result = await buildExportBundle(opened.store.db, file, parsed.request.query);
      if (readerChanged(opened.store)) return storeUnavailable('the store changed while it was read; send the request again');
    } finally {
      closeReader(opened.store);
    }
    if (!result.ok) {
      const { bytes, receipts } = result.tooLarge;
      return errorResponse(
        422,
        'result_too_large',
        `the export of this query is over ${MAX_BUNDLE_BYTES} bytes (${bytes} bytes after ${receipts} receipts, and it was not finished): narrow it (since, until, capabilityId, agentSubject), or download the whole store's evidence package from GET /v1/evidence/package`,
        { param: 'query' },
      );
    }
    if (parsed.request.requireProofs && result.unproven > 0) {
      return errorResponse(
        409,
        'proofs_unavailable',
        `${result.unproven} receipt(s) of this query have no inclusion proof: not checkpointed yet, or in a batch whose stored receipts do not reproduce its checkpoint's root`,
        {
          param: 'requireProofs',
        },
      );
    }
    return new Response(result.body, { status: 200, headers: JSON_HEADERS });
  } catch (e) {
    logServerError(requestLabel(request), e);
    return internalError();
  }
}

const CONTENT_TYPES: Record<string, string> = {
  '.ndjson': 'application/x-ndjson; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * `GET /v1/evidence/package` lists the files; `GET /v1/evidence/package/<name>`
 * downloads one. Only the names the manifest lists (and the manifest itself) are served.
 */
export async function handleEvidencePackage(request: Request, env: ReceiptApiEnv, name: string | null): Promise<Response> {
  try {
    const denied = checkBearer(request, env.RECEIPT_API_TOKEN);
    if (denied) return denied;
    if (malformedPercentEncoding(request.url)) return malformedUrl();
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET');
    if (fleetUrlOf(env))
      return errorResponse(
        404,
        'not_found',
        'this server serves a fleet: search it with /v1/receipts/query (GET /v1/fleet/kernels lists its kernels), or export one kernel with POST /v1/evidence/export',
      );
    const file = storeFileOf(env);
    const opened = getStore(file);
    if (!opened.ok) return storeUnavailable(opened.detail);
    const built = await packageFor(file, env);
    if (!built.ok) return storeUnavailable(built.detail);
    const { dir } = built;
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { files: { path: string; sha256: string; bytes: number }[] };
    if (name === null) {
      const files = [{ path: 'manifest.json', bytes: statSync(path.join(dir, 'manifest.json')).size }, ...manifest.files];
      const base = new URL(request.url).pathname.replace(/\/$/, '');
      const index = { files: files.map((f) => ({ ...f, url: `${base}/${encodeURIComponent(f.path)}` })) };
      return new Response(JSON.stringify(index), { status: 200, headers: JSON_HEADERS });
    }
    const listed = name === 'manifest.json' || manifest.files.some((f) => f.path === name);
    if (!listed || name.includes('/') || name.includes('\\'))
      return errorResponse(404, 'not_found', `the package has no file ${JSON.stringify(name)}`, { param: 'file' });
    // Streamed from disk: a million receipts make a 1.4 GB receipts.ndjson, which must not be
    // read into memory per request (nor keep the page waiting for its first byte meanwhile).
    // Opened here, so a missing file is a 500 before any header and the length is the file's.
    const fd = openSync(path.join(dir, name), 'r');
    const type = CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream';
    const headers = {
      ...JSON_HEADERS,
      'content-type': type,
      'content-length': String(fstatSync(fd).size),
      'content-disposition': `attachment; filename="${name}"`,
    };
    if (request.method === 'HEAD') {
      closeSync(fd);
      return new Response(null, { status: 200, headers });
    }
    return new Response(Readable.toWeb(createReadStream('', { fd })) as ReadableStream<Uint8Array>, { status: 200, headers });
  } catch (e) {
    logServerError(requestLabel(request), e);
    return internalError();
  }
}
