// How the compliance view names and colours policies: a policy hash is opaque
// (chio-format.md: do not validate its format), so each gets its ordinal in
// the whole log (first seen first) and its first characters; the full hash is
// always one hover or one line away. Colours follow the ordinal.

import { clipText, revealPlain } from '../../../lib/text/reveal';

const PALETTE = ['#0969da', '#bf3989', '#1a7f37', '#bc4c00', '#8250df', '#0a7a8a', '#9a6700', '#cf222e', '#57606a', '#4d2d9a'];

/** The first `keep` code points, with hidden and lookalike characters shown as ⟦U+…⟧ (a policy hash is receipt text). */
export function shortHash(hash: string, keep = 12): string {
  if (hash === '') return '(empty)';
  const { shown, hidden } = clipText(hash, hash.length > keep + 2 ? keep : keep + 2);
  return `${revealPlain(shown, Infinity)}${hidden > 0 ? '…' : ''}`;
}

/** Ordinal (1-based) of each policy in the whole log's order. */
export type PolicyNames = Map<string, number>;

export function policyLabel(names: PolicyNames, hash: string): string {
  const n = names.get(hash);
  return `${n !== undefined ? `Policy ${n}` : 'Policy'} · ${shortHash(hash)}`;
}

export function policyColor(names: PolicyNames, hash: string): string {
  const n = names.get(hash);
  return PALETTE[((n ?? 1) - 1) % PALETTE.length]!;
}
