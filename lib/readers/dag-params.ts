// The DAG view's own state in its URL (issue 5, item 1): the session or every session, the
// search, the focused receipt, the folded subtrees, "top levels only". The URL is
// attacker-controlled: malformed or oversized values are dropped. Pure.

/** The DAG view's own state, kept in its URL. */
export interface DagParams {
  session?: string;
  /** Every session at once. */
  all: boolean;
  q?: string;
  focus?: string;
  fold: string[];
  top: boolean;
}

const MAX_PARAM = 512;
const ok = (v: string | null): v is string => v !== null && v.length > 0 && v.length <= MAX_PARAM;

/** Reads the view's state from its URL; malformed values are dropped. */
export function dagParamsFrom(p: URLSearchParams): DagParams {
  const out: DagParams = { all: p.get('all') === '1', fold: [...new Set(p.getAll('fold').filter(ok))].slice(0, 500), top: p.get('top') === '1' };
  const session = p.get('session');
  const q = p.get('q');
  const focus = p.get('focus');
  if (ok(session)) out.session = session;
  if (ok(q) && q.trim()) out.q = q.trim().slice(0, 200);
  if (ok(focus)) out.focus = focus;
  return out;
}

export function dagParamsTo(s: DagParams): URLSearchParams {
  const p = new URLSearchParams();
  if (s.all) p.set('all', '1');
  else if (s.session !== undefined) p.set('session', s.session);
  if (s.q) p.set('q', s.q);
  if (s.focus !== undefined) p.set('focus', s.focus);
  if (s.top) p.set('top', '1');
  for (const f of s.fold) p.append('fold', f);
  return p;
}
