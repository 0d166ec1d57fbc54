// The rooms of the codebase and the way imports may point between them (README.md, "Rooms").
// Imports only point down: a room may import itself and the rooms listed for it, nothing else.
// Inside lib/, the rooms are ranked: a room imports only rooms of a lower rank (or its own).
// Test files (*.test.ts, e2e specs) may also reach test/support/ and the CLI's Node adapter;
// the rules below hold for every other file.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SKIP = new Set(['node_modules', '.next', 'testdata', 'test-results', 'playwright-report', 'bench-out', 'data', 'public', '.git', '.fleet', '.cache']);

/** Top-level rooms and the rooms each may import. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  lib: [],
  server: ['lib'],
  components: ['lib'],
  app: ['components', 'lib', 'server'],
  bin: ['lib', 'server'],
  tools: ['lib', 'server', 'bin'],
  'test/support': ['lib', 'server', 'bin', 'tools'],
  scripts: ['lib', 'server', 'bin', 'tools', 'test/support'],
  e2e: ['lib', 'server', 'tools', 'test/support', 'scripts'],
  '.': ['server', 'lib', 'scripts', 'e2e'], // proxy.ts and the config files at the top
};

/** lib/'s rooms, bottom first; a room imports only rooms on lower lines (or its own). */
const LIB_RANKS: readonly (readonly string[])[] = [
  ['bytes', 'text'],
  ['json', 'crypto'],
  ['merkle', 'verdict'],
  ['chio', 'dialects'],
  ['trust', 'finance'],
  ['verify'],
  ['sources'],
  ['query'],
  ['readers', 'overview', 'selftest'],
  ['workers'],
  ['share'],
  ['receipt'],
];

function roomOf(rel: string): string {
  if (rel.startsWith('test/support/')) return 'test/support';
  const first = rel.split('/')[0]!;
  return rel.includes('/') ? first : '.';
}
const libRoom = (rel: string) => (rel.startsWith('lib/') && rel.split('/').length > 2 ? rel.split('/')[1]! : null);
const rankOf = (room: string) => LIB_RANKS.findIndex((r) => r.includes(room));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

const isTest = (rel: string) => /\.(test|spec)\.tsx?$/.test(rel) || rel.startsWith('e2e/');
const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|new URL\(\s*['"](\.[^'"]+)['"],\s*import\.meta\.url/g;

/** Every relative import in the repository as [importer, imported], both relative to the root. */
function imports(): [string, string][] {
  const out: [string, string][] = [];
  for (const file of sourceFiles(ROOT)) {
    const rel = path.relative(ROOT, file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      if (!spec.startsWith('.') || spec.endsWith('/') || spec === '..' || spec === '.') continue; // a folder (a root path), not a module
      out.push([rel, path.relative(ROOT, path.resolve(path.dirname(file), spec))]);
    }
  }
  return out;
}

/** Why `from` may not import `to`, or null when it may. */
function violation(from: string, to: string): string | null {
  const a = roomOf(from);
  const b = roomOf(to);
  if (isTest(from)) return ['app', 'components'].includes(b) && ['lib', 'server', 'bin'].includes(a) ? `a ${a} test imports ${b}` : null;
  if (a !== b && !(MAY_IMPORT[a] ?? []).includes(b)) return `${a}/ may not import ${b}/`;
  const la = libRoom(from);
  const lb = libRoom(to);
  if (la && lb && la !== lb) {
    const ra = rankOf(la);
    const rb = rankOf(lb);
    if (ra < 0 || rb < 0) return `lib/${ra < 0 ? la : lb} has no rank in LIB_RANKS`;
    if (rb >= ra) return `lib/${la} may not import lib/${lb} (${rb === ra ? 'same rank' : 'a higher room'})`;
  }
  return null;
}

describe('layout: imports only point down', () => {
  const all = imports();

  it('finds the imports it checks', () => {
    expect(all.length).toBeGreaterThan(1000);
  });

  it('has no import that points up or across rooms that should not meet', () => {
    const bad = all.flatMap(([from, to]) => {
      const why = violation(from, to);
      return why ? [`${from} → ${to}: ${why}`] : [];
    });
    expect(bad).toEqual([]);
  });

  it('ranks every lib/ room', () => {
    const rooms = readdirSync(path.join(ROOT, 'lib')).filter((n) => statSync(path.join(ROOT, 'lib', n)).isDirectory() && n !== 'testdata');
    expect(rooms.filter((r) => rankOf(r) < 0)).toEqual([]);
  });

  it('catches the imports it is meant to catch', () => {
    expect(violation('lib/verify/report.ts', 'components/ui/x')).toMatch(/lib\/ may not import components/);
    expect(violation('lib/json/parse.ts', 'lib/verify/report')).toMatch(/higher room/);
    expect(violation('lib/verify/report.ts', 'lib/json/parse')).toBeNull();
    expect(violation('server/http.ts', 'app/v1/route')).toMatch(/server\/ may not import app/);
    expect(violation('lib/verify/x.ts', 'test/support/forge')).toMatch(/may not import test\/support/);
    expect(violation('lib/verify/x.test.ts', 'test/support/forge')).toBeNull();
    expect(violation('components/x.tsx', 'server/http')).toMatch(/components\/ may not import server/);
  });
});
