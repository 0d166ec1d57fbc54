// A receipt's guard evidence (chio-format.md §6, GuardEvidence) as one compact
// string, so it can be a dictionary-coded column of the explorer's rows:
// `forbidden-path:pass,path-allowlist:pass,egress-allowlist:fail`, in the
// receipt's own order (the kernel's evaluation order). Guard names are
// attacker-controlled: `%`, `,` and `:` in a name are percent-escaped, so any
// name round-trips and no name can forge a second entry. Pure.
import type { GuardEvidence } from '../chio/types';

export interface GuardOutcome {
  guard: string;
  passed: boolean;
}

const escapeName = (s: string) => s.replace(/[%,:]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
const unescapeName = (s: string) => s.replace(/%(25|2C|3A)/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** The evidence as a trail string; undefined when the receipt carries none. */
export function encodeGuardTrail(evidence: readonly GuardEvidence[]): string | undefined {
  if (evidence.length === 0) return undefined;
  return evidence.map((e) => `${escapeName(e.guardName)}:${e.verdict ? 'pass' : 'fail'}`).join(',');
}

/** The trail back as outcomes; entries that are not `name:pass|fail` are dropped (a trail is only ever made by encodeGuardTrail). */
export function decodeGuardTrail(trail: string): GuardOutcome[] {
  const out: GuardOutcome[] = [];
  for (const part of trail.split(',')) {
    const colon = part.lastIndexOf(':');
    if (colon <= 0) continue;
    const verdict = part.slice(colon + 1);
    if (verdict !== 'pass' && verdict !== 'fail') continue;
    out.push({ guard: unescapeName(part.slice(0, colon)), passed: verdict === 'pass' });
  }
  return out;
}

/** The first guard that failed, if any: the one that blocked a denied call (or, on an advisory receipt, would have). */
export function firstFailedGuard(evidence: readonly GuardEvidence[]): string | undefined {
  return evidence.find((e) => !e.verdict)?.guardName;
}
