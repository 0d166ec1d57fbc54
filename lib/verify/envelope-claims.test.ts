import { describe, expect, it } from 'vitest';
import { claimsText, envelopeLabel, isContradicted } from './envelope-claims';
import type { ReportEnvelope } from '../verdict/report';

const bridge: ReportEnvelope = { kind: 'chio-bridge-outcome', host: 'codex-exec-json', state: 'completed', evidence: 'verified', claimed: true };

describe('envelope claims, as the command line and the page word them', () => {
  it('label and claims as written', () => {
    expect(envelopeLabel(bridge)).toBe('a chio-bridge outcome in a Codex exec --json transcript');
    expect(envelopeLabel({ kind: 'mcp-tool-result', claimed: true })).toBe('an MCP tool result');
    expect(claimsText(bridge)).toBe('state completed, evidence verified');
    expect(claimsText({ kind: 'mcp-tool-result', state: 'completed', output_kind: 'value', decision: 'allow', claimed: true })).toBe(
      'state completed, output_kind value, decision allow',
    );
  });

  it('a success claim is contradicted only by a failed verdict; no claim lifts or lowers a verdict', () => {
    expect(isContradicted({ verdict: 'failed', envelope: bridge })).toBe(true);
    expect(isContradicted({ verdict: 'failed', envelope: { kind: 'chio-bridge-outcome', state: 'denied', evidence: 'unverified', claimed: true } })).toBe(
      false,
    );
    expect(isContradicted({ verdict: 'failed', envelope: { kind: 'chio-bridge-outcome', state: 'unknown', evidence: 'verified', claimed: true } })).toBe(true);
    expect(isContradicted({ verdict: 'unverified', envelope: bridge })).toBe(false);
    expect(isContradicted({ verdict: 'verified', envelope: bridge })).toBe(false);
    expect(isContradicted({ verdict: 'failed' })).toBe(false);
  });
});
