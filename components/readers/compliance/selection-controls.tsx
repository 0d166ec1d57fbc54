'use client';
// What the compliance report covers: a time range (UTC, to the second) and
// one policy, both kept in the URL, and the print button. Hidden in print,
// where the report's own header states the selection.
import { useEffect, useState } from 'react';
import type { ComplianceSelection, PolicySummary } from '../../../lib/readers/compliance';
import { type PolicyNames, policyLabel, shortHash } from './policy-names';

/** Unix seconds → the value of a `datetime-local` input, read as UTC. */
const toInput = (s: number | undefined) => (s === undefined || !Number.isFinite(s) ? '' : new Date(s * 1000).toISOString().slice(0, 19));
/** A `datetime-local` value (minutes or seconds) as UTC Unix seconds; null when it is not one. */
function fromInput(v: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(v)) return null;
  const ms = Date.parse(`${v}Z`);
  return Number.isNaN(ms) || ms < 0 ? null : Math.floor(ms / 1000);
}

export function SelectionControls({
  selection,
  onSelect,
  policies,
  names,
  log,
}: {
  selection: ComplianceSelection;
  onSelect: (s: ComplianceSelection) => void;
  policies: PolicySummary[];
  names: PolicyNames;
  log: { first: number; last: number };
}) {
  const [from, setFrom] = useState(toInput(selection.since));
  const [to, setTo] = useState(toInput(selection.until));
  useEffect(() => setFrom(toInput(selection.since)), [selection.since]);
  useEffect(() => setTo(toInput(selection.until)), [selection.until]);
  const set = (patch: Partial<ComplianceSelection>) => {
    const next: ComplianceSelection = { ...selection, ...patch };
    for (const k of ['since', 'until', 'policy'] as const) if (next[k] === undefined) delete next[k];
    onSelect(next);
  };
  const commit = (which: 'since' | 'until', v: string) => {
    if (v === '') return set({ [which]: undefined });
    const s = fromInput(v);
    // Exactly the second shown (the input drops ":00"), inclusive at both ends.
    if (s !== null) set({ [which]: s });
  };
  const known = policies.some((p) => p.policy === selection.policy);
  return (
    <form className="compliance-controls no-print" aria-label="What the report covers" onSubmit={(e) => e.preventDefault()}>
      <label>
        From (UTC)
        <input
          type="datetime-local"
          step={1}
          value={from}
          min={toInput(log.first)}
          max={toInput(log.last)}
          data-testid="range-since"
          onChange={(e) => setFrom(e.target.value)}
          onBlur={(e) => commit('since', e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && commit('since', e.currentTarget.value)}
        />
      </label>
      <label>
        To (UTC)
        <input
          type="datetime-local"
          step={1}
          value={to}
          min={toInput(log.first)}
          max={toInput(log.last)}
          data-testid="range-until"
          onChange={(e) => setTo(e.target.value)}
          onBlur={(e) => commit('until', e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && commit('until', e.currentTarget.value)}
        />
      </label>
      <label>
        Policy
        <select value={selection.policy ?? ''} data-testid="policy-select" onChange={(e) => set({ policy: e.target.value || undefined })}>
          <option value="">every policy</option>
          {policies.map((p) => (
            <option key={p.policy} value={p.policy}>
              {policyLabel(names, p.policy)} ({p.receipts.toLocaleString('en-US')} verified receipts)
            </option>
          ))}
          {selection.policy !== undefined && !known && (
            <option value={selection.policy}>{shortHash(selection.policy)} (no verified receipt in this range)</option>
          )}
        </select>
      </label>
      <button
        type="button"
        className="button"
        data-testid="selection-clear"
        disabled={selection.since === undefined && selection.until === undefined && selection.policy === undefined}
        onClick={() => onSelect({})}
      >
        Whole log, every policy
      </button>
      <button type="button" className="button primary" data-testid="print-report" onClick={() => window.print()}>
        Print / save as PDF
      </button>
    </form>
  );
}
