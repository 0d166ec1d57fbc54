// Serves the upstream vector files the browser self-test runs (read-only, as
// copied into lib/testdata/). The page verifies them itself; nothing is judged here.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ED25519_VECTOR_FILES } from '../../../lib/selftest/ed25519-vectors';
import { CHIO_RECEIPT_VECTOR_FILES } from '../../../lib/selftest/chio-vectors';

export const dynamic = 'force-static';

export async function GET(): Promise<Response> {
  const root = path.join(process.cwd(), 'lib', 'testdata');
  const files = { ...ED25519_VECTOR_FILES, ...CHIO_RECEIPT_VECTOR_FILES };
  const texts = Object.fromEntries(
    await Promise.all(Object.entries(files).map(async ([name, rel]) => [name, await readFile(path.join(root, rel), 'utf8')] as const)),
  );
  return Response.json(texts, { headers: { 'cache-control': 'public, max-age=3600' } });
}
