// Test-only helpers for reading the vectors copied (unchanged) under lib/testdata/.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const TESTDATA_DIR = fileURLToPath(new URL('../testdata/', import.meta.url));

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
