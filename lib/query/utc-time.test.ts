import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUtc, fromUtcInput, toUtcInput } from './utc-time';

describe('UTC times of the explorer', () => {
  it('formats Unix seconds as UTC text, and unknown times as a dash', () => {
    expect(formatUtc(1767225603)).toBe('2026-01-01 00:00:03');
    expect(formatUtc(Number.NaN)).toBe('—');
    expect(formatUtc(Number.POSITIVE_INFINITY)).toBe('—');
    // A timestamp a Date cannot hold (a hostile receipt's) is unknown, not a crash.
    expect(formatUtc(1e18)).toBe('—');
  });

  it('a from/to field reads UTC, to the second, the minute or the day', () => {
    expect(toUtcInput(1767225603)).toBe('2026-01-01 00:00:03');
    expect(toUtcInput(undefined)).toBe('');
    expect(toUtcInput(1e18)).toBe('');
    expect(fromUtcInput('2026-01-01 00:00:03')).toBe(1767225603);
    expect(fromUtcInput('2026-01-01T00:00:03')).toBe(1767225603);
    expect(fromUtcInput(' 2026-01-01 00:00 ')).toBe(1767225600);
    expect(fromUtcInput('2026-01-01')).toBe(1767225600);
  });

  it('a "to" bound is inclusive: it takes the last second of what it names', () => {
    expect(fromUtcInput('2026-01-01', true)).toBe(1767225600 + 86399);
    expect(fromUtcInput('2026-01-01 10:00', true)).toBe(1767225600 + 36000 + 59);
    expect(fromUtcInput('2026-01-01 10:00:07', true)).toBe(1767225600 + 36007);
  });

  it('rejects text that is no time, or a day that does not exist', () => {
    for (const bad of [
      '',
      'now',
      '2026-02-30',
      '2026-13-01 00:00',
      '2026-01-01 24:00',
      '2026-01-01 00:60',
      '1969-12-31 23:59:59',
      '2026-1-1 00:00',
      '+2026-01-01',
      '2026-01-01 00:00:03.5',
      '2026-01-01 00:00:00Z',
    ]) {
      expect(fromUtcInput(bad), bad).toBeUndefined();
    }
  });

  it('round-trips every whole second from 1970 to 9999, as a "from" and as a "to"', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253402300799 }), (t) => {
        expect(fromUtcInput(toUtcInput(t))).toBe(t);
        expect(fromUtcInput(toUtcInput(t), true)).toBe(t);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string(), fc.boolean(), (s, end) => void fromUtcInput(s, end)));
  });
});
