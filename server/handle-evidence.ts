// Server side only: `POST /v1/evidence/export` (chio-format.md §11.2) and the files of the
// served log's evidence package for direct download (§11.1), after the gate (serve-api.ts), for
// the Next routes and api-router.ts alike. Order: method → input → backend → bytes. The server
// only serves bytes; every proof it computes is re-verified by whoever reads it.
import { closeSync, createReadStream, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { readCapped } from '../lib/bytes/read-capped';
import { parseJson } from '../lib/json/parse';
import { parseExportRequest } from '../lib/query/evidence-query';
import { JSON_HEADERS, apiErrorResponse, badParameters, errorResponse, methodNotAllowed } from './http';
import type { ApiRoute } from './serve-api';

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
export const evidenceExportRoute: ApiRoute = async (request, backend) => {
  if (request.method !== 'POST') return methodNotAllowed('POST');
  const body = await readBody(request);
  if (!body.ok) return body.response;
  const parsed = parseExportRequest(body.value);
  if (!parsed.ok) return badParameters(parsed.issues);
  const bundle = await backend.exportEvidence(parsed.request);
  return bundle.ok ? new Response(bundle.value, { status: 200, headers: JSON_HEADERS }) : apiErrorResponse(bundle.error);
};

const CONTENT_TYPES: Record<string, string> = {
  '.ndjson': 'application/x-ndjson; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

interface Manifest {
  files: { path: string; sha256: string; bytes: number }[];
}

/**
 * `GET /v1/evidence/package` lists the files (`name` null); `GET /v1/evidence/package/<name>`
 * downloads one. Only the names the manifest lists (and the manifest itself) are served.
 */
export function evidencePackageRoute(name: string | null): ApiRoute {
  return async (request, backend) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET');
    const built = await backend.evidencePackage();
    if (!built.ok) return apiErrorResponse(built.error);
    const dir = built.value;
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
    if (name === null) return packageIndex(request, dir, manifest);
    const listed = name === 'manifest.json' || manifest.files.some((f) => f.path === name);
    if (!listed || name.includes('/') || name.includes('\\'))
      return errorResponse(404, 'not_found', `the package has no file ${JSON.stringify(name)}`, { param: 'file' });
    return packageFile(request, dir, name);
  };
}

/** The package's files, each with its link. */
function packageIndex(request: Request, dir: string, manifest: Manifest): Response {
  const files = [{ path: 'manifest.json', bytes: statSync(path.join(dir, 'manifest.json')).size }, ...manifest.files];
  const base = new URL(request.url).pathname.replace(/\/$/, '');
  const index = { files: files.map((f) => ({ ...f, url: `${base}/${encodeURIComponent(f.path)}` })) };
  return new Response(JSON.stringify(index), { status: 200, headers: JSON_HEADERS });
}

/**
 * One listed file, streamed from disk: a million receipts make a 1.4 GB receipts.ndjson, which
 * must not be read into memory per request (nor keep the page waiting for its first byte
 * meanwhile). Opened here, so a missing file is a 500 before any header and the length is the file's.
 */
function packageFile(request: Request, dir: string, name: string): Response {
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
}
