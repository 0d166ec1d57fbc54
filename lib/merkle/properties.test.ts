// The lib/merkle boundary: no node:*, react or next imports, and the public API.
// (The property tests are in merkle.fuzz.test.ts.)
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as merkle from './index';

describe('lib/merkle boundary', () => {
  it('non-test modules import nothing platform-specific', () => {
    const dir = new URL('./', import.meta.url);
    const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const offenders: string[] = [];
    for (const file of modules) {
      const source = readFileSync(new URL(file, dir), 'utf8');
      for (const m of source.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/g)) {
        const spec = m[1] ?? m[2] ?? '';
        if (!spec.startsWith('.')) offenders.push(`${file}: ${spec}`);
      }
    }
    expect(modules.length).toBeGreaterThanOrEqual(5);
    expect(offenders, offenders.join('\n')).toEqual([]);
  });

  it('index exports the public API', () => {
    expect(Object.keys(merkle).sort()).toEqual(
      [
        'HASH_SIZE',
        'MAX_PROOF_LEVELS',
        'MERKLE_ERROR_CODES',
        'appendToFrontier',
        'consistencyProofFor',
        'frontierRoot',
        'inclusionProofFor',
        'leafHash',
        'nodeHash',
        'rootFromInclusionProof',
        'rootFromLeafHashes',
        'verifyConsistency',
        'verifyInclusion',
      ].sort(),
    );
  });
});
