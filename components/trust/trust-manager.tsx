'use client';
// Pin, remove, export and import kernel keys (with label and validity window).
// The export is the command line's --trust-file format, so the same keys pin
// the same signers in CI.
import { useState } from 'react';
import { normalizeKernelKey } from '../../lib/chio/keys';
import { DEMO_KERNEL_KEY } from '../../lib/trust/known-keys';
import { useSession } from '../data/log-contexts';
import { useTrust } from '../data/trust-provider';
import { useCheckpoints } from '../data/checkpoint-memory-provider';
import { MAX_TRUST_FILE_BYTES, type TrustEntry, mergeTrustEntries, parseTrustEntries, readTrustFileText, trustFileText } from '../../lib/trust/trust-file';
import { MAX_CHECKPOINT_FILE_BYTES } from '../../lib/trust/checkpoint-memory-import';
import { TransferRow } from './transfer-row';
import { RememberedCheckpoints } from './remembered-checkpoints';
import { SafeText } from '../ui/safe-text';

const toUnix = (local: string): number | undefined => (local ? Math.floor(new Date(local).getTime() / 1000) : undefined);
const fromUnix = (s: number | undefined) => (s === undefined ? '—' : new Date(s * 1000).toISOString().replace('.000Z', 'Z'));

export function TrustManager() {
  const { session } = useSession();
  const { trust, trustIssue, saveTrust } = useTrust();
  const { remembered, memoryIssues, forgetCheckpoint, importCheckpoints, exportCheckpoints } = useCheckpoints();
  const [key, setKey] = useState('');
  const [label, setLabel] = useState('');
  const [notBefore, setNotBefore] = useState('');
  const [notAfter, setNotAfter] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [memoryMessage, setMemoryMessage] = useState<string | null>(null);

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
          add({
            key: key.trim(),
            ...(label ? { label } : {}),
            ...(nb !== undefined ? { not_before: nb } : {}),
            ...(na !== undefined ? { not_after: na } : {}),
          });
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
      {trustIssue && (
        <p role="alert" className="banner bad" data-testid="trust-storage-issue">
          <SafeText
            text={`${trustIssue[0]!.toUpperCase()}${trustIssue.slice(1)}. Import your trust file again, or pin the keys again (this replaces what is stored).`}
            max={400}
          />
        </p>
      )}
      {message && (
        <p role="status" data-testid="trust-status">
          <SafeText text={message} max={400} />
        </p>
      )}

      <h2>Pinned ({trust.length})</h2>
      {trust.length === 0 ? (
        <p className="muted">No keys pinned: signer_trusted is skipped for every receipt.</p>
      ) : (
        <table className="grid" data-testid="trust-list">
          <thead>
            <tr>
              <th scope="col">key</th>
              <th scope="col">label</th>
              <th scope="col">valid from</th>
              <th scope="col">valid until</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {trust.map((t, i) => (
              <tr key={`${t.key}/${i}`}>
                <td>
                  <code>
                    <SafeText text={t.key} max={140} />
                  </code>
                </td>
                <td data-testid="trust-label">
                  <SafeText text={t.label ?? ''} max={120} />
                </td>
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
      <TransferRow
        exportLabel="Export (for receipt-audit --trust-file)"
        fileName="receipt-audit-trust.json"
        exportText={trust.length > 0 ? () => trustFileText(trust) : null}
        importLabel="Import…"
        testId="trust-import"
        maxBytes={MAX_TRUST_FILE_BYTES}
        onRefused={setMessage}
        onImport={(name, text) => {
          const parsed = readTrustFileText(text);
          if (!parsed.ok) return setMessage(`${name}: ${parsed.error}; nothing was imported.`);
          const merged = mergeTrustEntries(trust, parsed.entries);
          saveTrust(merged.entries);
          setMessage(
            `Imported ${merged.added} key(s) from ${name}${merged.added < parsed.entries.length ? ` (${parsed.entries.length - merged.added} already pinned)` : ''}.`,
          );
        }}
      />

      {seen.length > 0 && (
        <>
          <h2>Keys in the open log</h2>
          <ul>
            {seen.map((k) => (
              <li key={k.key}>
                <code>
                  <SafeText text={k.key} max={140} />
                </code>{' '}
                {k.key === DEMO_KERNEL_KEY ? '(the published demo key) ' : ''}signed {k.receipts} receipts and {k.checkpoints} checkpoints —{' '}
                {pinned.has(k.key) ? (
                  'pinned'
                ) : (
                  <>
                    not pinned.{' '}
                    <button type="button" className="button" onClick={() => add({ key: k.key })}>
                      Pin it
                    </button>{' '}
                    only if you know, from outside this log, that it is yours.
                  </>
                )}
              </li>
            ))}
          </ul>
        </>
      )}

      <RememberedCheckpoints remembered={remembered} issues={memoryIssues} onForget={forgetCheckpoint} />
      <TransferRow
        exportLabel="Export the remembered checkpoints"
        fileName="receipt-audit-checkpoints.json"
        exportText={remembered.length > 0 ? exportCheckpoints : null}
        importLabel="Import checkpoints…"
        testId="checkpoints-import"
        maxBytes={MAX_CHECKPOINT_FILE_BYTES}
        onRefused={setMemoryMessage}
        onImport={(name, text) => {
          const result = importCheckpoints(text);
          if (!result.ok) return setMemoryMessage(`${name} was not imported: ${result.error}. Nothing changed.`);
          setMemoryMessage(
            `Imported the checkpoints of ${result.added.length} log(s) from ${name}${result.unchanged.length ? ` (${result.unchanged.length} already remembered)` : ''}.`,
          );
        }}
      />
      {memoryMessage && (
        <p role="status" data-testid="checkpoints-status">
          {memoryMessage}
        </p>
      )}
    </>
  );
}
