import { describe, expect, it } from 'vitest';
import { reportJsonParts, reportToJson } from './report-json';
import { verifiedLog } from '../../test/support/reader-log';
import { readTestdataJson, testdataPath } from '../../test/support/testdata';

describe('reportJsonParts', () => {
  it('cuts a real report into pieces that join to the same JSON text, none much longer than asked', async () => {
    const dir = 'corpus/tampered-signature';
    const { report } = await verifiedLog([testdataPath(dir)], readTestdataJson<{ trust_keys: string[] }>(`${dir}/expected.json`).trust_keys);
    const whole = reportToJson(report);
    const parts = reportJsonParts(report, 2, 4096);
    expect(parts.length).toBeGreaterThan(10);
    expect(parts.join('')).toBe(whole);
    // A piece closes once it reaches the size: it overshoots by at most one member's text.
    expect(Math.max(...parts.map((p) => p.length))).toBeLessThan(4096 + 1024);
    // Exact integers survive (no rounding above 2^53).
    expect(reportToJson({ n: 2n ** 64n - 1n })).toBe('{\n  "n": 18446744073709551615\n}');
  });
});
