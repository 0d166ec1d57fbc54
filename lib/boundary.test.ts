// lib/ is the pure verification core: it must run unchanged in Node (the CLI),
// the browser's main thread and Web Workers. No framework and no Node-only
// imports outside tests and test utilities.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LIB = fileURLToPath(new URL('./', import.meta.url));
const FORBIDDEN = [/^node:/, /^react(-dom)?(\/|$)/, /^next(\/|$)/, /^@tanstack\//, /^(fs|path|os|crypto|child_process|url|stream|worker_threads)$/];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'testdata' ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

describe('lib/ boundary', () => {
  it('imports nothing framework- or Node-specific', () => {
    const violations: string[] = [];
    const files = sourceFiles(LIB);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g)) {
        const spec = m[1] ?? m[2] ?? m[3]!;
        if (FORBIDDEN.some((re) => re.test(spec))) violations.push(`${path.relative(LIB, file)} imports ${spec}`);
      }
      if (/\bprocess\.|\bBuffer\b|__dirname/.test(text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')))
        violations.push(`${path.relative(LIB, file)} uses a Node global`);
    }
    expect(files.length).toBeGreaterThan(20);
    expect(violations).toEqual([]);
  });
});
