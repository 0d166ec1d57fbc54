'use client';
// The DAG page's session picker (/dag): the search over every session's receipts, the list of
// sessions with their verified counts (at most SESSIONS_LISTED), and "every session". Picking
// one sets the view's URL state (lib/readers/dag-params.ts); ids are shown as text only.
import { useEffect, useState } from 'react';
import type { DagParams } from '../../../lib/readers/dag-params';
import type { dagSearch } from '../../../lib/readers/dag-search';
import type { DagIndex } from '../../../lib/readers/dag-sessions';
import { formatTime } from '../../explorer/format';
import { SafeText } from '../../ui/safe-text';
import { shortId } from './dag-nodes';
import { fmt, plural } from './dag-format';

const SESSIONS_LISTED = 200;

export function SessionPicker({
  index,
  state,
  setState,
  search,
  chosen,
}: {
  index: DagIndex;
  state: DagParams;
  setState: (s: DagParams) => void;
  search: ReturnType<typeof dagSearch> | null;
  chosen: string | null;
}) {
  const [text, setText] = useState(state.q ?? '');
  useEffect(() => setText(state.q ?? ''), [state.q]);
  const listed = search ? index.sessions.filter((s) => search.bySession.has(s.sessionId)) : index.sessions;
  const total = index.child + index.tool;
  const pick = (s: DagParams) => setState(s);
  return (
    <aside className="dag-side" aria-label="Sessions">
      <form
        className="dag-search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          const q = text.trim();
          const next: DagParams = { ...state, fold: [] };
          if (q) next.q = q;
          else delete next.q;
          delete next.focus;
          pick(next);
        }}
      >
        <label htmlFor="dag-q">Find a receipt, request, tool or session</label>
        <div className="picker-row">
          <input
            id="dag-q"
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="receipt id, request id, file_read…"
            data-testid="dag-search"
          />
          <button type="submit" className="button">
            Find
          </button>
        </div>
      </form>
      {search && (
        <div className="dag-hits" data-testid="dag-hits" data-total={search.total}>
          <p>
            {search.total === 0 ? (
              <>
                No receipt of any session matches “<SafeText text={state.q ?? ''} max={120} />
                ”.
              </>
            ) : (
              <>
                {plural(search.total, 'receipt')} in {plural(search.bySession.size, 'session')} match “<SafeText text={state.q ?? ''} max={120} />”
                {search.total > search.hits.length ? `; the first ${search.hits.length} are listed` : ''}. Pick one to see where it sits.
              </>
            )}{' '}
            <button
              type="button"
              className="linkish"
              onClick={() => {
                const next = { ...state };
                delete next.q;
                pick(next);
              }}
            >
              Clear
            </button>
          </p>
          <ol className="dag-hit-list">
            {search.hits.map((h) => (
              <li key={`${h.session}/${h.receiptId}`}>
                <button
                  type="button"
                  className={`dag-hit${state.focus === h.receiptId ? ' active' : ''}`}
                  data-testid="dag-hit"
                  onClick={() => pick({ ...state, all: false, session: h.session, focus: h.receiptId, fold: [], top: false })}
                >
                  <span>
                    <SafeText text={h.label} max={60} expandable={false} />
                  </span>
                  <code>
                    <SafeText text={shortId(h.receiptId, 8)} />
                  </code>
                  {h.verdict !== 'verified' && <span className={`dag-verdict v-${h.verdict}`}>{h.verdict}</span>}
                </button>
              </li>
            ))}
          </ol>
        </div>
      )}
      <h2 className="dag-side-title">{search ? `Sessions with a match (${fmt(listed.length)})` : `Sessions (${fmt(index.sessions.length)})`}</h2>
      <button
        type="button"
        className={`dag-session all${state.all ? ' active' : ''}`}
        data-testid="dag-session-all"
        aria-pressed={state.all}
        onClick={() => {
          const next: DagParams = { ...state, all: true, fold: [], top: false };
          delete next.focus;
          pick(next);
        }}
      >
        <strong>All sessions</strong>
        <span className="muted">{plural(total, 'verified receipt')}</span>
      </button>
      <ol className="dag-session-list" data-testid="dag-sessions" data-count={index.sessions.length}>
        {listed.slice(0, SESSIONS_LISTED).map((s) => (
          <li key={s.sessionId}>
            <button
              type="button"
              className={`dag-session${!state.all && chosen === s.sessionId ? ' active' : ''}`}
              data-testid="dag-session"
              data-session={s.sessionId}
              data-child={s.child}
              data-tool={s.tool}
              aria-pressed={!state.all && chosen === s.sessionId}
              onClick={() => {
                const next: DagParams = { ...state, all: false, session: s.sessionId, fold: [], top: false };
                delete next.focus;
                pick(next);
              }}
            >
              <code>
                <SafeText text={shortId(s.sessionId, 12)} />
              </code>
              <span>
                {plural(s.child, 'request')}
                {s.tool > 0 ? `, ${plural(s.tool, 'tool call')}` : ''}
                {search?.bySession.get(s.sessionId) ? ` · ${fmt(search.bySession.get(s.sessionId)!)} match` : ''}
              </span>
              <span className="muted">{formatTime(s.firstTime)} UTC</span>
              {s.notVerified > 0 && <span className="dag-verdict v-failed">{plural(s.notVerified, 'receipt')} not verified</span>}
            </button>
          </li>
        ))}
      </ol>
      {listed.length > SESSIONS_LISTED && (
        <p className="muted">
          {fmt(listed.length - SESSIONS_LISTED)} more sessions are not listed: search for a session id, receipt or tool to narrow the list.
        </p>
      )}
    </aside>
  );
}
