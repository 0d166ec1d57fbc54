import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadFile } from '../sources/package';
import { genAReceipt, keyFromSeed } from '../../test/support/forge';
import { MAX_PROBLEMS_PER_CODE_AND_FILE, ProblemCap } from '../verdict/problem-cap';
import { makeProblem } from '../verdict/problems';
import { pinnedVerifier } from '../../test/support/verify-records';

/** The cap as it applies to parse errors alone (the assembler's takes other codes too). */
const parseErrorCap = (max?: number) => new ProblemCap(max, (p) => p.code === 'parse_error');
const err = (file: string, line: number) => makeProblem('parse_error', `bad line ${line}`, { file, line });

describe('ProblemCap, parse errors', () => {
  it('keeps the first hundred lines of each file whatever the arrival order, and counts the rest exactly', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(
          Array.from({ length: 400 }, (_, i) => i + 1),
          { minLength: 0, maxLength: 400 },
        ),
        (lines) => {
          const cap = parseErrorCap();
          for (const l of lines) expect(cap.take(err('a.ndjson', l))).toBe(true);
          const sorted = [...lines].sort((x, y) => x - y);
          const out = cap.problems();
          const kept = sorted.slice(0, MAX_PROBLEMS_PER_CODE_AND_FILE);
          const rest = sorted.slice(MAX_PROBLEMS_PER_CODE_AND_FILE);
          expect(out.slice(0, kept.length).map((p) => p.line)).toEqual(kept);
          if (rest.length === 0) expect(out).toHaveLength(kept.length);
          else {
            expect(out).toHaveLength(kept.length + 1);
            expect(out.at(-1)).toMatchObject({
              code: 'parse_error',
              severity: 'error',
              file: 'a.ndjson',
              line: rest[0],
              message: `… and ${rest.length} more line${rest.length === 1 ? '' : 's'} in a.ndjson could not be parsed (first at line ${rest[0]}, last at line ${rest.at(-1)}); only the first 100 are listed`,
            });
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('counts per file, and leaves other codes and unlocated problems to the caller', () => {
    const cap = parseErrorCap(2);
    for (const l of [1, 2, 3]) cap.take(err('a', l));
    cap.take(err('b', 9));
    expect(cap.take(makeProblem('signature_invalid', 'x', { file: 'a', line: 4 }))).toBe(false);
    expect(cap.take(makeProblem('parse_error', 'whole file', { file: 'a' }))).toBe(false);
    expect(cap.problems().map((p) => `${p.file}:${p.line}`)).toEqual(['a:1', 'a:2', 'a:3', 'b:9']);
    expect(cap.problems()[2]!.message).toMatch(/^… and 1 more line in a could not be parsed/);
  });
});

describe('a file of many bad lines through the verifier', () => {
  it('5,000 unparseable lines and 20 good receipts: 101 problems, every receipt verified', async () => {
    const key = keyFromSeed(3);
    const lines: string[] = [];
    for (let i = 1; i <= 5020; i++) lines.push(i % 251 === 0 ? JSON.stringify(genAReceipt({ seq: i, key })) : `not json ${i}`);
    const text = lines.join('\n') + '\n';
    const verifier = pinnedVerifier([key.publicHex]);
    await loadFile(
      {
        name: 'noisy.ndjson',
        async *stream() {
          yield new TextEncoder().encode(text);
        },
      },
      verifier,
      'files',
    );
    const report = await verifier.finish();
    // Every unreadable line is counted, those past the cap too: the headline says 5,000 are left out.
    expect(report.summary).toMatchObject({ receipts: 20, verified: 20, unreadable: 5000 });
    expect(report.problems).toHaveLength(101);
    const bad = lines.map((l, i) => (l.startsWith('not') ? i + 1 : 0)).filter(Boolean);
    expect(report.problems.slice(0, 100).map((p) => p.line)).toEqual(bad.slice(0, 100));
    expect(report.problems[100]!.message).toBe(
      `… and ${bad.length - 100} more lines in noisy.ndjson could not be parsed (first at line ${bad[100]}, last at line ${bad.at(-1)}); only the first 100 are listed`,
    );
    expect(report.ok).toBe(false);
  });
});
