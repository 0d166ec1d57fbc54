// How the command line and the page speak of an envelope's claims (contract
// part 2 §1 principle 6, §5.4): always as claimed by the wrapper, never as a
// verdict; a success claim on a receipt whose verdict is `failed` is said to
// be contradicted by it. One wording for both, so they cannot drift apart.
import type { ReportEnvelope, ReportReceipt } from '../verdict/report';

const KIND_LABEL: Record<string, string> = {
  'chio-bridge-outcome': 'a chio-bridge outcome',
  'mcp-tool-result': 'an MCP tool result',
};

const HOST_LABEL: Record<string, string> = {
  'claude-code-stream-json': 'Claude Code stream-json transcript',
  'codex-exec-json': 'Codex exec --json transcript',
};

/** "a chio-bridge outcome in a Claude Code stream-json transcript" (an unknown kind as written, in quotes). */
export function envelopeLabel(env: ReportEnvelope): string {
  const kind = KIND_LABEL[env.kind] ?? `"${env.kind}"`;
  return env.host ? `${kind} in a ${HOST_LABEL[env.host] ?? env.host}` : kind;
}

/** The claims as written, e.g. `state completed, evidence verified`; empty when the wrapper claims nothing. */
export function claimsText(env: ReportEnvelope): string {
  const parts: string[] = [];
  if (env.state !== undefined) parts.push(`state ${env.state}`);
  if (env.evidence !== undefined) parts.push(`evidence ${env.evidence}`);
  if (env.output_kind !== undefined) parts.push(`output_kind ${env.output_kind}`);
  if (env.decision !== undefined) parts.push(`decision ${env.decision}`);
  return parts.join(', ');
}

/** The wrapper says the call completed, was allowed, or that it verified the receipt. */
export function claimsSuccess(env: ReportEnvelope): boolean {
  return env.state === 'completed' || env.evidence === 'verified' || env.decision === 'allow';
}

/** A success claim on a receipt whose verdict is `failed`: shown as contradicted, never believed. */
export function isContradicted(r: Pick<ReportReceipt, 'verdict' | 'envelope'>): boolean {
  return r.envelope !== undefined && r.verdict === 'failed' && claimsSuccess(r.envelope);
}
