// Every folder of code has a README.md that names each of its files (contract: house style,
// "each a folder with a short README"), so a newcomer reading it sees the whole folder.
// A file counts as named when its name appears in backticks, alone or as the end of a path
// (`report.ts`, `lib/verify/report.ts`). Every folder that holds code has its own README, except
// inside app/, whose one README maps the route tree. Test files are not listed.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The rooms whose folders must each carry a README. */
const ROOMS = ['lib', 'server', 'components', 'bin', 'tools', 'test', 'scripts', 'e2e', 'app'];
const APP = path.join(ROOT, 'app');
const SKIP = new Set(['testdata', 'node_modules']);
const isCode = (name: string) => /\.(ts|tsx|mjs)$/.test(name) && !/\.(test|spec)\.tsx?$/.test(name) && !name.endsWith('.d.ts');

/** [folder with a README, file path relative to that folder] for every code file under `dir`. */
function owned(dir: string, readmeDir: string | null, out: [string, string][]): void {
  const here = existsSync(path.join(dir, 'README.md')) ? dir : readmeDir;
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) owned(full, here, out);
    else if (isCode(name)) out.push([here ?? dir, path.relative(here ?? dir, full)]);
  }
}

function named(readme: string, rel: string): boolean {
  const base = path.basename(rel);
  const ticks = [...readme.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.replace(/\\/g, ''));
  return ticks.some((t) => t === base || t === rel || t.endsWith(`/${rel}`) || t.endsWith(`/${base}`) || t.split(/[\s,]+/).includes(base));
}

describe('folder READMEs', () => {
  const files: [string, string][] = [];
  for (const room of ROOMS) owned(path.join(ROOT, room), null, files);

  it('finds the code it checks', () => {
    expect(files.length).toBeGreaterThan(300);
  });

  it('every folder of code has a README (app/ has one for its routes)', () => {
    const lacking = files.filter(([dir, rel]) => !existsSync(path.join(dir, 'README.md')) || (!dir.startsWith(APP) && rel.includes('/')));
    const missing = [...new Set(lacking.map(([dir, rel]) => path.relative(ROOT, path.dirname(path.join(dir, rel)))))];
    expect(missing).toEqual([]);
  });

  it('every code file is named in its README', () => {
    const unnamed = files
      .filter(([dir]) => existsSync(path.join(dir, 'README.md')))
      .filter(([dir, rel]) => !named(readFileSync(path.join(dir, 'README.md'), 'utf8'), rel))
      .map(([dir, rel]) => `${path.relative(ROOT, dir)}/README.md does not name ${rel}`);
    expect(unnamed).toEqual([]);
  });
});
