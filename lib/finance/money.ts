// Exact money display (contract §9: amounts are integers in minor units):
// a minor-unit bigint shown with its currency's decimals, never through a
// float. The currency code is attacker-controlled text from a receipt; an
// unknown code gets 0 decimals and says the number is in minor units, since
// guessing 2 would misstate the amount 100-fold for some currencies.

/** Decimals of the minor unit (ISO 4217 exponents; common crypto units). */
export const CURRENCY_DECIMALS: Readonly<Record<string, number>> = {
  // ISO 4217, exponent 2
  USD: 2,
  EUR: 2,
  GBP: 2,
  CHF: 2,
  CAD: 2,
  AUD: 2,
  NZD: 2,
  SEK: 2,
  NOK: 2,
  DKK: 2,
  PLN: 2,
  CZK: 2,
  HUF: 2,
  RON: 2,
  BGN: 2,
  CNY: 2,
  HKD: 2,
  SGD: 2,
  TWD: 2,
  INR: 2,
  BRL: 2,
  MXN: 2,
  ZAR: 2,
  TRY: 2,
  ILS: 2,
  AED: 2,
  SAR: 2,
  THB: 2,
  MYR: 2,
  PHP: 2,
  IDR: 2,
  // exponent 0
  JPY: 0,
  KRW: 0,
  VND: 0,
  CLP: 0,
  ISK: 0,
  UGX: 0,
  PYG: 0,
  XAF: 0,
  XOF: 0,
  // exponent 3
  BHD: 3,
  KWD: 3,
  JOD: 3,
  TND: 3,
  OMR: 3,
  IQD: 3,
  LYD: 3,
  // crypto: wei, satoshi, token base units
  ETH: 18,
  BTC: 8,
  USDC: 6,
  USDT: 6,
};

/** The currency's decimals, or undefined when we do not know the currency. */
export function currencyDecimals(currency: string | undefined): number | undefined {
  return currency !== undefined && Object.hasOwn(CURRENCY_DECIMALS, currency) ? CURRENCY_DECIMALS[currency] : undefined;
}

const group3 = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** `units` with `decimals` decimal places, exactly: (12345n, 2) → "123.45"; thousands grouped. */
export function formatUnits(units: bigint, decimals: number): string {
  const neg = units < 0n;
  const s = (neg ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = group3(s.slice(0, s.length - decimals));
  return `${neg ? '-' : ''}${whole}${decimals ? `.${s.slice(s.length - decimals)}` : ''}`;
}

/** 12345n USD → "123.45 USD"; an unknown currency → "12,345 XYZ (minor units)". */
export function formatMinor(minor: bigint, currency: string | undefined): string {
  const d = currencyDecimals(currency);
  if (d === undefined) return `${formatUnits(minor, 0)}${currency ? ` ${currency}` : ''} (minor units)`;
  return `${formatUnits(minor, d)} ${currency}`;
}

/** The amount in major units as a float: for chart bar heights only, never for sums or display text. */
export function minorToApproxMajor(minor: bigint, currency: string | undefined): number {
  return Number(minor) / 10 ** (currencyDecimals(currency) ?? 0);
}

/**
 * numerator / denominator as a decimal with at most `digits` decimals
 * (trailing zeros dropped), and whether that is exact. Null for a zero
 * denominator.
 */
export function formatRatio(numerator: bigint, denominator: bigint, digits = 6): { text: string; exact: boolean } | null {
  if (denominator === 0n) return null;
  const scale = 10n ** BigInt(digits);
  const scaled = numerator * scale;
  const q = scaled / denominator;
  const text =
    digits > 0
      ? formatUnits(q, digits)
          .replace(/(\.\d*?)0+$/, '$1')
          .replace(/\.$/, '')
      : formatUnits(q, 0);
  return { text, exact: q * denominator === scaled };
}
