// Display formats: UTC times, and exact minor-unit amounts with the currency's decimals.
import { formatMinor } from '../../lib/finance/money';

export function formatTime(unixSeconds: number): string {
  if (!Number.isFinite(unixSeconds)) return '—';
  return new Date(unixSeconds * 1000).toISOString().replace('T', ' ').replace('.000Z', '');
}

/**
 * 12345 USD → "123.45 USD", exactly (BigInt, never floats), with the decimals
 * of lib/finance/money.ts; an unknown currency shows its minor units as such.
 */
export function formatAmount(minor: bigint, currency: string | undefined): string {
  return formatMinor(minor, currency);
}
