// Display formats: UTC times, and exact minor-unit amounts with the currency's decimals.

const DECIMALS: Record<string, number> = { JPY: 0, KRW: 0, BHD: 3, KWD: 3, JOD: 3, TND: 3, OMR: 3 };

export function formatTime(unixSeconds: number): string {
  if (!Number.isFinite(unixSeconds)) return '—';
  return new Date(unixSeconds * 1000).toISOString().replace('T', ' ').replace('.000Z', '');
}

/** 12345 USD → "123.45 USD", exactly (BigInt, never floats). Unknown currencies use 2 decimals. */
export function formatAmount(minor: bigint, currency: string | undefined): string {
  const d = currency ? (DECIMALS[currency] ?? 2) : 2;
  const s = minor.toString().padStart(d + 1, '0');
  const whole = s.slice(0, s.length - d);
  const frac = d ? `.${s.slice(s.length - d)}` : '';
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac}${currency ? ` ${currency}` : ''}`;
}
