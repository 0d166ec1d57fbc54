'use client';
// What only the user can supply for other runtimes' receipts: ZeroClaw's HMAC
// key (ZeroClaw never keeps it: only test or debug keys exist outside the
// runtime) and the git diff CodeWhale review receipts were written for. Kept in
// memory (the log provider's state), never in a URL, storage or a share link.
import { useState } from 'react';
import { fromHex } from '../../lib/bytes/hex';
import type { DialectInputs } from '../../lib/workers/protocol';

export function DialectInputsPanel({ value, onApply }: { value: DialectInputs; onApply: (inputs: DialectInputs) => void }) {
  const [key, setKey] = useState('');
  const [diff, setDiff] = useState<File | null>(null);
  const [maxChars, setMaxChars] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inUse = [
    value.hmacKey ? `ZeroClaw key (${value.hmacKey.length} bytes)` : null,
    value.diff ? `diff ${value.diff.name}${value.diff.maxChars !== undefined ? ` cut at ${value.diff.maxChars.toLocaleString('en-US')} bytes` : ''}` : null,
  ].filter((x): x is string => x !== null);

  const apply = () => {
    const trimmed = key.trim();
    const next: DialectInputs = {};
    if (trimmed !== '') {
      const bytes = /^([0-9a-fA-F]{2})+$/.test(trimmed) ? fromHex(trimmed) : null;
      if (!bytes) {
        setError("The key must be hex: two digits per byte (ZeroClaw's key is 32 bytes, 64 hex digits).");
        return;
      }
      next.hmacKey = bytes;
    } else if (value.hmacKey) next.hmacKey = value.hmacKey;
    const max = maxChars.trim();
    if (max !== '' && !/^[1-9][0-9]{0,9}$/.test(max)) {
      setError('--max-chars must be a positive whole number (CodeWhale’s default is 200000).');
      return;
    }
    // A newly chosen diff replaces the one in use; a --max-chars typed applies to whichever is used.
    let nextDiff = diff ? { name: diff.name, data: diff as Blob } : value.diff;
    if (nextDiff && max !== '') nextDiff = { ...nextDiff, maxChars: Number(max) };
    if (nextDiff) next.diff = nextDiff;
    setError(null);
    setKey('');
    onApply(next);
  };

  return (
    <details className="picker dialect-inputs" open={inUse.length > 0 || undefined} data-testid="dialect-inputs">
      <summary>
        <strong>Other runtimes</strong>: a ZeroClaw key, a CodeWhale diff{inUse.length > 0 ? ` (in use: ${inUse.join(', ')})` : ''}
      </summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          apply();
        }}
      >
        <p className="picker-row">
          <label>
            ZeroClaw HMAC key (hex){' '}
            <input
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={key}
              placeholder={value.hmacKey ? 'a key is in use; type another to replace it' : '64 hex digits'}
              onChange={(e) => setKey(e.target.value)}
              data-testid="zc-key-input"
            />
          </label>
        </p>
        <p className="muted">
          ZeroClaw keeps its key in memory only, per receipt scope, so real receipts cannot be checked: their signature check is skipped (key not available
          (ephemeral)), never passed. A test or debug key recomputes each tag.
        </p>
        <p className="picker-row">
          <label className="button">
            choose the diff
            <input type="file" hidden data-testid="cw-diff-input" onChange={(e) => setDiff(e.target.files?.[0] ?? null)} />
          </label>
          <span>{diff ? diff.name : value.diff ? `${value.diff.name} (in use)` : 'no diff chosen'}</span>
          <label>
            --max-chars{' '}
            <input type="text" inputMode="numeric" value={maxChars} placeholder="200000" size={8} onChange={(e) => setMaxChars(e.target.value)} data-testid="cw-max-chars" />
          </label>
        </p>
        <p className="muted">
          The <code>git diff</code> output a CodeWhale review receipt was written for (with the same flags). Review receipts are unsigned: checking them
          against the diff is an integrity check, not an authenticity check.
        </p>
        <p className="picker-row">
          <button type="submit" className="button" data-testid="dialect-apply">
            Verify with these
          </button>
          {inUse.length > 0 && (
            <button
              type="button"
              className="button"
              data-testid="dialect-clear"
              onClick={() => {
                setKey('');
                setDiff(null);
                setMaxChars('');
                setError(null);
                onApply({});
              }}
            >
              Forget the key and diff
            </button>
          )}
        </p>
        {error && (
          <p role="alert" className="banner bad" data-testid="dialect-error">
            {error}
          </p>
        )}
      </form>
    </details>
  );
}
