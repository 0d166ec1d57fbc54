import { describe, expect, it } from 'vitest';
import { currencyDecimals, formatMinor, formatRatio, formatUnits, minorToApproxMajor } from './money';

describe('money formatting', () => {
  it('shows minor units with the currency’s decimals, exactly', () => {
    expect(formatMinor(12345n, 'USD')).toBe('123.45 USD');
    expect(formatMinor(5n, 'EUR')).toBe('0.05 EUR');
    expect(formatMinor(0n, 'USD')).toBe('0.00 USD');
    expect(formatMinor(1234567n, 'JPY')).toBe('1,234,567 JPY');
    expect(formatMinor(1234n, 'KWD')).toBe('1.234 KWD');
    expect(formatMinor(123456789012345678901n, 'ETH')).toBe('123.456789012345678901 ETH');
    expect(formatMinor(18446744073709551615n, 'USD')).toBe('184,467,440,737,095,516.15 USD');
  });

  it('an unknown currency gets 0 decimals and says its unit', () => {
    expect(currencyDecimals('XYZ')).toBeUndefined();
    expect(currencyDecimals('toString')).toBeUndefined();
    expect(currencyDecimals('__proto__')).toBeUndefined();
    expect(formatMinor(12345n, 'XYZ')).toBe('12,345 XYZ (minor units)');
    expect(formatMinor(7n, undefined)).toBe('7 (minor units)');
  });

  it('formats units and ratios without floats', () => {
    expect(formatUnits(100n, 2)).toBe('1.00');
    expect(formatUnits(-1050n, 2)).toBe('-10.50');
    expect(formatRatio(331245n, 100n)).toEqual({ text: '3,312.45', exact: true });
    expect(formatRatio(1n, 3n, 4)).toEqual({ text: '0.3333', exact: false });
    expect(formatRatio(300n, 1n)).toEqual({ text: '300', exact: true });
    expect(formatRatio(3000n, 10n, 0)).toEqual({ text: '300', exact: true });
    expect(formatRatio(1n, 0n)).toBeNull();
  });

  it('the chart’s float is only an approximation of the major amount', () => {
    expect(minorToApproxMajor(12345n, 'USD')).toBeCloseTo(123.45);
    expect(minorToApproxMajor(12345n, 'XYZ')).toBe(12345);
  });
});
