'use client';
// Asks for the API token when this server's /v1 API answered 401. A password
// input (not shown, not spell-checked, not autofilled); the token is handed up
// and kept by the page for this tab only (components/data/api-token.ts).
import { useState } from 'react';

export function ApiTokenPrompt({ rejected, onToken }: { rejected: boolean; onToken: (token: string) => void }) {
  const [value, setValue] = useState('');
  const token = value.trim();
  return (
    <form
      className="picker-row"
      data-testid="api-token-form"
      aria-label="API token for this server's log"
      onSubmit={(e) => {
        e.preventDefault();
        if (token) onToken(token);
        setValue('');
      }}
    >
      <label>
        {rejected ? 'Another API token' : 'API token'}{' '}
        <input type="password" data-testid="api-token-input" autoComplete="off" spellCheck={false} value={value} onChange={(e) => setValue(e.target.value)} />
      </label>
      <button type="submit" className="button" disabled={!token}>
        open this server&apos;s log with it
      </button>
      <span className="muted">
        Kept in this tab only and sent only to this server, as <code>Authorization: Bearer</code>. The log is still verified here: the server only serves its
        bytes. A link can carry it as <code>#token=…</code>; it is taken out of the address bar at once.
      </span>
    </form>
  );
}
