'use client';
// The explorer's controls: live search, "filter by" a field's values with
// their counts, and the time window (UTC). Each is a labelled native control
// (keyboard and screen readers as the browser gives them); each reports a new
// value, and the explorer writes it to the URL.
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { facetCounts } from '../../lib/query/explorer-facets';
import { type ExplorerFilter, VALUE_FILTER_LABEL, type ValueFilter } from '../../lib/query/explorer-filter';
import { type RowStore, type RowVerdict, VERDICT_LABEL } from '../../lib/query/row-store';
import { fromUtcInput, toUtcInput } from '../../lib/query/utc-time';
import { revealPlain } from '../../lib/text/reveal';

/** Search runs this long after the last keystroke (Enter runs it at once). */
export const SEARCH_DEBOUNCE_MS = 250;

export function SearchBox({ q, onSearch }: { q: string | undefined; onSearch: (q: string | undefined) => void }) {
  const [text, setText] = useState(q ?? '');
  const latest = useRef({ q, onSearch });
  latest.current = { q, onSearch };
  // The URL changed by something else (a chip removed, "clear all", a link): show it, unless it is what is typed.
  useEffect(() => setText((t) => (t.trim() === (q ?? '') ? t : (q ?? ''))), [q]);
  const timer = useRef<number | undefined>(undefined);
  // Reads the latest props through `latest`, so it never changes.
  const run = useCallback((value: string) => {
    const next = value.trim() || undefined;
    if (next !== latest.current.q) latest.current.onSearch(next);
  }, []);
  useEffect(() => {
    timer.current = window.setTimeout(() => run(text), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer.current);
  }, [text, run]);
  return (
    <form
      className="explorer-field explorer-search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        window.clearTimeout(timer.current);
        run(text);
      }}
    >
      <label>
        <span>Search</span>
        <input
          type="search"
          placeholder="id, tool, guard, capability, tenant…"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && text) {
              e.preventDefault();
              setText('');
            }
          }}
          maxLength={200}
          data-testid="explorer-search"
        />
      </label>
    </form>
  );
}

/** The fields of the "filter by" menu, the ones auditors use most first. */
const FIELDS: ValueFilter[] = [
  'verdict',
  'problem',
  'decision',
  'toolServer',
  'toolName',
  'guard',
  'guardFailed',
  'settlement',
  'currency',
  'tenant',
  'type',
  'generation',
  'receiptKind',
  'boundaryClass',
  'trustLevel',
  'capabilityId',
  'grantIndex',
  'rootBudgetHolder',
  'policyHash',
  'kernelKey',
  'sessionId',
  'operationKind',
  'source',
  'file',
];

const valueLabel = (field: ValueFilter, v: string) => (field === 'verdict' ? (VERDICT_LABEL[v as RowVerdict] ?? v) : revealPlain(v, 80));

/**
 * A field, then one of its values with how many rows have it (within the other filters). An
 * option's value is the receipt value as JSON: receipt values are attacker-controlled and may hold
 * any character, and an HTML attribute does not carry every one (a NUL becomes U+FFFD in the
 * server's HTML) — JSON escapes every control character.
 */
export function FilterPicker({
  store,
  filter,
  rows,
  version,
  onAdd,
}: {
  store: RowStore;
  filter: ExplorerFilter;
  rows: Uint32Array;
  version: string;
  onAdd: (field: ValueFilter, value: string) => void;
}) {
  const [field, setField] = useState<ValueFilter>('verdict');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the RowStore is filled in place, so `version` (which changes when its rows or verdicts do) is the dependency that matters
  const counts = useMemo(() => facetCounts(store, filter, field, 500, rows), [store, filter, field, rows, version]);
  const chosen = filter.values[field] ?? [];
  const id = useId();
  return (
    <div className="explorer-field explorer-filter" role="group" aria-labelledby={`${id}-title`}>
      <span id={`${id}-title`} className="explorer-field-title">
        Filter by
      </span>
      <span className="explorer-filter-pair">
        <select aria-label="Field" value={field} onChange={(e) => setField(e.target.value as ValueFilter)} data-testid="explorer-filter-field">
          {FIELDS.map((k) => (
            <option key={k} value={k}>
              {VALUE_FILTER_LABEL[k]}
            </option>
          ))}
        </select>
        <select
          aria-label={`Value of ${VALUE_FILTER_LABEL[field]}, with the rows that have it`}
          value=""
          onChange={(e) => {
            const v = parseOption(e.target.value);
            if (v !== undefined) onAdd(field, v);
          }}
          data-testid="explorer-filter-value"
        >
          <option value="">{counts.length ? `choose a value (${counts.length.toLocaleString('en-US')})` : 'no value in these rows'}</option>
          {counts.map((c) => (
            <option key={c.value} value={JSON.stringify(c.value)} disabled={chosen.includes(c.value)}>
              {valueLabel(field, c.value)} ({c.count.toLocaleString('en-US')}){chosen.includes(c.value) ? ' ✓' : ''}
            </option>
          ))}
        </select>
      </span>
    </div>
  );
}

function parseOption(value: string): string | undefined {
  if (!value) return undefined;
  try {
    const v: unknown = JSON.parse(value);
    return typeof v === 'string' && v.length > 0 ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * From and to, inclusive, in UTC (the URL's `since` and `until`, Unix seconds): text fields that
 * read and write times as the table shows them (`2026-01-01 00:00:03`; a day or a minute alone
 * also works). A field applies on Enter or when it loses focus; text that is no time says so.
 */
export function TimeRange({
  since,
  until,
  onChange,
}: {
  since: number | undefined;
  until: number | undefined;
  onChange: (bound: 'since' | 'until', value: number | undefined) => void;
}) {
  const id = useId();
  return (
    <div className="explorer-field explorer-time" role="group" aria-labelledby={`${id}-title`}>
      <span id={`${id}-title`} className="explorer-field-title">
        Time (UTC)
      </span>
      <span className="explorer-time-pair">
        <TimeInput bound="since" value={since} label="from" hint={`${id}-hint`} onChange={onChange} />
        <TimeInput bound="until" value={until} label="to" hint={`${id}-hint`} onChange={onChange} />
      </span>
      <span id={`${id}-hint`} className="explorer-hint">
        YYYY-MM-DD, optionally HH:MM or HH:MM:SS
      </span>
    </div>
  );
}

function TimeInput({
  bound,
  value,
  label,
  hint,
  onChange,
}: {
  bound: 'since' | 'until';
  value: number | undefined;
  label: string;
  hint: string;
  onChange: (bound: 'since' | 'until', value: number | undefined) => void;
}) {
  const [draft, setDraft] = useState(toUtcInput(value));
  const [invalid, setInvalid] = useState(false);
  // The URL changed (a chip removed, a link): show its value.
  useEffect(() => {
    setDraft(toUtcInput(value));
    setInvalid(false);
  }, [value]);
  const commit = () => {
    const text = draft.trim();
    if (text === '') {
      setInvalid(false);
      if (value !== undefined) onChange(bound, undefined);
      return;
    }
    const t = fromUtcInput(text, bound === 'until');
    setInvalid(t === undefined);
    if (t !== undefined && t !== value) onChange(bound, t);
    else if (t !== undefined) setDraft(toUtcInput(t));
  };
  return (
    <label>
      <span>{label}</span>
      <input
        type="text"
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        placeholder={bound === 'since' ? 'first receipt' : 'last receipt'}
        size={19}
        maxLength={40}
        value={draft}
        aria-invalid={invalid || undefined}
        aria-describedby={hint}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit();
          }
        }}
        data-testid={`explorer-${bound}`}
      />
    </label>
  );
}
