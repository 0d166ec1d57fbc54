'use client';
// Pin, remove, export and import kernel keys (with label and validity window).
// The export is the command line's --trust-file format, so the same keys pin
// the same signers in CI.
import { useState } from 'react';
import { normalizeKernelKey } from '../../lib/chio/keys';
import { DEMO_KERNEL_KEY } from '../../lib/trust/known-keys';
import { useLog } from '../data/log-provider';
import { type TrustEntry, parseTrustEntries } from '../../lib/trust/trust-file';
import { downloadText } from '../data/download';
import { RememberedCheckpoints } from './remembered-checkpoints';
import { SafeText } from '../ui/safe-text';

const toUnix = (local: string): number | undefined => (local ? Math.floor(new Date(local).getTime() / 1000) : undefined);
const fromUnix = (s: number | undefined) => (s === undefined ? '—' : new Date(s * 1000).toISOString().replace('.000Z', 'Z'));

export function TrustManager() {
  const { trust, saveTrust, session, remembered, memoryIssues, forgetCheckpoint } = useLog();
  const [key, setKey] = useState('');
  const [label, setLabel] = useState('');
  const [notBefore, setNotBefore] = useState('');
  const [notAfter, setNotAfter] = useState('');
  const [message, setMessage] = useState<string | null>(null);

  const add = (entry: TrustEntry) => {
    const parsed = parseTrustEntries([entry]);
    if (!parsed.ok) return setMessage(parsed.error);
    saveTrust([...trust, ...parsed.entries]);
    setMessage(`Pinned ${parsed.entries[0]!.key}.`);
    setKey('');
    setLabel('');
  };
  const seen = session.status === 'done' ? session.report.keys : [];
  const pinned = new Set(trust.map((t) => t.key));

  return (
    <>
      <form
        className="trust-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (normalizeKernelKey(key.trim()) === null) return setMessage('That is not a kernel key: 64 hex characters (Ed25519), or p256:/p384:/hybrid: keys.');
          const nb = toUnix(notBefore);
          const na = toUnix(notAfter);
          add({ key: key.trim(), ...(label ? { label } : {}), ...(nb !== undefined ? { not_before: nb } : {}), ...(na !== undefined ? { not_after: na } : {}) });
        }}
      >
        <label>
          Kernel key
          <input data-testid="trust-key-input" value={key} onChange={(e) => setKey(e.target.value)} placeholder="64 hex characters" spellCheck={false} />
        </label>
        <label>
          Label
          <input value={label} onChange={(e) => setLabel(e.target.value)} placeholder="e.g. production kernel" />
        </label>
        <label>
          Valid from
          <input type="datetime-local" value={notBefore} onChange={(e) => setNotBefore(e.target.value)} />
        </label>
        <label>
          Valid until
          <input type="datetime-local" value={notAfter} onChange={(e) => setNotAfter(e.target.value)} />
        </label>
        <button type="submit" className="button" data-testid="trust-key-add">
          Pin key
        </button>
      </form>
      {message && <p role="status"><SafeText text={message} max={400} /></p>}

      <h2>Pinned ({trust.length})</h2>
      {trust.length === 0 ? (
        <p className="muted">No keys pinned: signer_trusted is skipped for every receipt.</p>
      ) : (
        <table className="grid" data-testid="trust-list">
          <thead>
            <tr><th scope="col">key</th><th scope="col">label</th><th scope="col">valid from</th><th scope="col">valid until</th><th scope="col" /></tr>
          </thead>
          <tbody>
            {trust.map((t, i) => (
              <tr key={`${t.key}/${i}`}>
                <td><code><SafeText text={t.key} max={140} /></code></td>
                <td data-testid="trust-label"><SafeText text={t.label ?? ''} max={120} /></td>
                <td>{fromUnix(t.not_before)}</td>
                <td>{fromUnix(t.not_after)}</td>
                <td>
                  <button type="button" className="button" onClick={() => saveTrust(trust.filter((_, j) => j !== i))}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="picker-row">
        <button type="button" className="button" onClick={() => downloadText('receipt-audit-trust.json', JSON.stringify(trust, null, 2) + '\n')} disabled={trust.length === 0}>
          Export (for receipt-audit --trust-file)
        </button>
        <label className="button">
          Import…
          <input
            type="file"
            accept="application/json,.json"
            hidden
            onChange={async (e) => {
              const file = e.target.files?.[0];
              if (!file) return;
              try {
                const parsed = parseTrustEntries(JSON.parse(await file.text()));
                if (!parsed.ok) return setMessage(`${file.name}: ${parsed.error}`);
                saveTrust([...trust, ...parsed.entries]);
                setMessage(`Imported ${parsed.entries.length} key(s) from ${file.name}.`);
              } catch {
                setMessage(`${file.name} is not JSON.`);
              }
            }}
          />
        </label>
      </p>

      {seen.length > 0 && (
        <>
          <h2>Keys in the open log</h2>
          <ul>
            {seen.map((k) => (
              <li key={k.key}>
                <code><SafeText text={k.key} max={140} /></code> {k.key === DEMO_KERNEL_KEY ? '(the published demo key) ' : ''}signed {k.receipts} receipts and {k.checkpoints} checkpoints —{' '}
                {pinned.has(k.key) ? 'pinned' : <>not pinned. <button type="button" className="button" onClick={() => add({ key: k.key })}>Pin it</button> only if you know, from outside this log, that it is yours.</>}
              </li>
            ))}
          </ul>
        </>
      )}

      <RememberedCheckpoints remembered={remembered} issues={memoryIssues} onForget={forgetCheckpoint} />
    </>
  );
}
