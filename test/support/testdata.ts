// Test-only helpers for reading the vectors copied (unchanged) under lib/testdata/.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { fromBase64, fromHex } from '../../lib/bytes/hex';

export const TESTDATA_DIR = fileURLToPath(new URL('../../lib/testdata/', import.meta.url));

export function testdataPath(rel: string): string {
  return path.join(TESTDATA_DIR, rel);
}

export function readTestdata(rel: string): Buffer {
  return readFileSync(testdataPath(rel));
}

export function readTestdataText(rel: string): string {
  return readFileSync(testdataPath(rel), 'utf8');
}

export function readTestdataJson<T = unknown>(rel: string): T {
  return JSON.parse(readTestdataText(rel)) as T;
}

/** Every file under `rel` (recursively), as paths relative to lib/testdata/. */
export function listTestdata(rel: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(testdataPath(dir)).sort()) {
      const child = path.join(dir, name);
      if (statSync(testdataPath(child)).isDirectory()) walk(child);
      else out.push(child);
    }
  };
  walk(rel);
  return out;
}

/** Formats a vector loop's outcome: "N of M matched" plus every failure, one per line. */
export function summarize(label: string, total: number, failures: string[]): string {
  return `${label}: ${total - failures.length} of ${total} matched${failures.length ? '\n' + failures.join('\n') : ''}`;
}

/** Hex from a vector file; a malformed one is a test-data bug, so it throws. */
export function vectorHex(s: string): Uint8Array {
  const bytes = fromHex(s);
  if (!bytes) throw new Error(`bad hex in vector: ${s.slice(0, 40)}`);
  return bytes;
}

/** Standard base64 from a vector file (Go's []byte JSON encoding); throws when malformed. */
export function vectorBase64(s: string): Uint8Array {
  const bytes = fromBase64(s);
  if (!bytes) throw new Error(`malformed base64 in vector: ${s}`);
  return bytes;
}

/** Reads a transparency-dev probe (lib/testdata/merkle/…). */
export const readMerkleJson = (rel: string): unknown => readTestdataJson(`merkle/${rel}`);

/** Every .json probe under `rel` (relative to lib/testdata/merkle/), sorted. */
export const listMerkleJson = (rel: string): string[] =>
  listTestdata(`merkle/${rel}`)
    .filter((e) => e.endsWith('.json'))
    .map((e) => e.slice('merkle/'.length));
