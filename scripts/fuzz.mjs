#!/usr/bin/env node
// `npm run fuzz`: the property-based fuzz suite (every `*.fuzz.test.ts`) at a long size, on demand.
// FUZZ_SCALE multiplies every property's run count (default here 50; CI runs them at 1 inside the
// normal unit tests). FUZZ_SEED replays a failure: fast-check prints "seed: …" when a property
// fails. Arguments narrow the files by path, e.g. `npm run fuzz -- lib/json lib/merkle`.
//
//   npm run fuzz                         all fuzz files, FUZZ_SCALE=50
//   FUZZ_SCALE=5 npm run fuzz -- lib/sources
//   FUZZ_SEED=1234 FUZZ_SCALE=1 npm run fuzz -- lib/json/parse
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './start.mjs';

function fuzzFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'testdata' ? [] : fuzzFiles(full);
    return e.name.endsWith('.fuzz.test.ts') ? [relative(ROOT, full)] : [];
  });
}

const filters = process.argv.slice(2);
const files = fuzzFiles(join(ROOT, 'lib')).filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)));
if (files.length === 0) {
  console.error(`fuzz: no *.fuzz.test.ts file under lib/ matches ${filters.join(' ')}`);
  process.exit(2);
}
const env = { ...process.env, FUZZ_SCALE: process.env.FUZZ_SCALE || '50' };
console.log(`fuzz: ${files.length} files at FUZZ_SCALE=${env.FUZZ_SCALE}${env.FUZZ_SEED ? `, FUZZ_SEED=${env.FUZZ_SEED}` : ''}`);
const child = spawn(join(ROOT, 'node_modules', '.bin', 'vitest'), ['run', ...files], { cwd: ROOT, env, stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
