// Display formats: UTC times, and exact minor-unit amounts with the currency's decimals.
import { formatMinor } from '../../lib/finance/money';
import { formatUtc } from '../../lib/query/utc-time';

/** Unix seconds → `2026-01-01 00:00:03` (UTC), `—` when unknown (lib/query/utc-time.ts). */
export function formatTime(unixSeconds: number): string {
  return formatUtc(unixSeconds);
}

/**
 * 12345 USD → "123.45 USD", exactly (BigInt, never floats), with the decimals
 * of lib/finance/money.ts; an unknown currency shows its minor units as such.
 */
export function formatAmount(minor: bigint, currency: string | undefined): string {
  return formatMinor(minor, currency);
}
