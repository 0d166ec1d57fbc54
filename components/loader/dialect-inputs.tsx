'use client';
// What only the user can supply for other runtimes' receipts: ZeroClaw's HMAC
// key (ZeroClaw never keeps it: only test or debug keys exist outside the
// runtime) and the git diff CodeWhale review receipts were written for. Kept in
// memory (the log provider's state), never in a URL, storage or a share link,
// like the API token: the key is not even shown again once applied, only its
// length. Applying them verifies the open log again, since a key is usually
// entered after seeing ZeroClaw receipts come out unverified.
import { Fragment, useId, useState } from 'react';
import { fromHex } from '../../lib/bytes/hex';
import type { DialectInputs } from '../../lib/workers/protocol';
import { SafeText } from '../ui/safe-text';

/** CodeWhale's default `--max-chars` (lib/dialects/codewhale/review.ts). */
const DEFAULT_MAX_CHARS = 200_000;

/** The key as bytes, or why not, as the command line's --hmac-key reads it (hex, two digits a byte). */
function parseKey(text: string): { ok: true; key: Uint8Array } | { ok: false; message: string } {
  const hex = text.trim();
  if (!/^[0-9a-fA-F]*$/.test(hex)) return { ok: false, message: "The key must be hex (0–9, a–f): ZeroClaw's key is 32 bytes, 64 hex digits." };
  if (hex.length % 2 !== 0) return { ok: false, message: `The key must be hex, two digits a byte: ${hex.length} digits is not a whole number of bytes.` };
  const key = fromHex(hex);
  return key && key.length > 0 ? { ok: true, key } : { ok: false, message: 'The key must be hex, two digits a byte.' };
}

/**
 * `hasLog`: a log is open, so applying verifies it again with the inputs (else they wait for the
 * next one). `open`: shown unfolded (on the page of a receipt that needs them).
 */
export function DialectInputsPanel({
  value,
  onApply,
  hasLog,
  open: openFirst = false,
}: {
  value: DialectInputs;
  onApply: (inputs: DialectInputs) => void;
  hasLog: boolean;
  open?: boolean;
}) {
  const id = useId();
  const [key, setKey] = useState('');
  const [showKey, setShowKey] = useState(false);
  const [diff, setDiff] = useState<File | null>(null);
  const [maxChars, setMaxChars] = useState('');
  const [error, setError] = useState<{ field: 'key' | 'max'; message: string } | null>(null);
  // What is in use, never the key itself (its length only); a file name is text from outside, revealed.
  const inUse = [
    value.hmacKey ? <Fragment key="key">a ZeroClaw key ({value.hmacKey.length} bytes)</Fragment> : null,
    value.diff ? (
      <Fragment key="diff">
        the diff <SafeText text={value.diff.name} max={80} />
        {value.diff.maxChars !== undefined ? ` at --max-chars ${value.diff.maxChars}` : ''}
      </Fragment>
    ) : null,
  ].filter((x) => x !== null);

  const apply = () => {
    const next: DialectInputs = {};
    if (key.trim() !== '') {
      const parsed = parseKey(key);
      if (!parsed.ok) {
        setError({ field: 'key', message: parsed.message });
        return;
      }
      next.hmacKey = parsed.key;
    } else if (value.hmacKey) next.hmacKey = value.hmacKey;
    const max = maxChars.trim();
    if (max !== '' && !/^[1-9][0-9]{0,9}$/.test(max)) {
      setError({ field: 'max', message: `--max-chars must be a positive whole number (CodeWhale's default is ${DEFAULT_MAX_CHARS}).` });
      return;
    }
    // A newly chosen diff replaces the one in use; a --max-chars typed applies to whichever is used.
    let nextDiff = diff ? { name: diff.name, data: diff as Blob } : value.diff;
    if (max !== '' && !nextDiff) {
      setError({ field: 'max', message: '--max-chars goes with a diff: choose the diff the review was written for.' });
      return;
    }
    if (nextDiff && max !== '') nextDiff = { ...nextDiff, maxChars: Number(max) };
    if (nextDiff) next.diff = nextDiff;
    if (!next.hmacKey && !next.diff && inUse.length === 0) {
      setError({ field: 'key', message: 'Enter a key or choose a diff first.' });
      return;
    }
    setError(null);
    // The key leaves the input once applied: it lives only in the session's memory from here.
    setKey('');
    setShowKey(false);
    setDiff(null);
    setMaxChars('');
    onApply(next);
  };

  return (
    <details className="picker dialect-inputs" open={openFirst || inUse.length > 0 || undefined} data-testid="dialect-inputs">
      <summary>
        <strong>Other runtimes</strong>: ZeroClaw key, CodeWhale diff
        {inUse.length > 0 ? (
          <span data-testid="dialect-in-use"> (in use: {inUse.map((x, i) => [i > 0 ? ', ' : '', x])})</span>
        ) : (
          <span className="muted"> (optional)</span>
        )}
      </summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          apply();
        }}
      >
        <div className="picker-row">
          <label htmlFor={`${id}-key`}>ZeroClaw HMAC key (hex)</label>
          <input
            id={`${id}-key`}
            type={showKey ? 'text' : 'password'}
            className="key-input"
            autoComplete="off"
            spellCheck={false}
            value={key}
            placeholder={value.hmacKey ? 'a key is in use: type another to replace it' : '64 hex digits'}
            aria-invalid={error?.field === 'key' || undefined}
            aria-describedby={`${id}-key-help${error?.field === 'key' ? ` ${id}-error` : ''}`}
            onChange={(e) => setKey(e.target.value)}
            data-testid="zc-key-input"
          />
          <label className="muted">
            <input type="checkbox" checked={showKey} onChange={(e) => setShowKey(e.target.checked)} data-testid="zc-key-show" /> show
          </label>
        </div>
        <p className="muted" id={`${id}-key-help`}>
          ZeroClaw keeps its key in memory only; without it tags cannot be checked (skipped: key not available (ephemeral)). A test or debug key recomputes each
          tag here; it stays in this tab&apos;s memory, never in the address, the browser&apos;s storage or a share link.
        </p>
        <div className="picker-row">
          <label className="button">
            choose the diff
            <input
              type="file"
              hidden
              data-testid="cw-diff-input"
              onChange={(e) => {
                setDiff(e.target.files?.[0] ?? null);
                // Emptied, so choosing the same file again (after editing it) is seen.
                e.target.value = '';
              }}
            />
          </label>
          <span data-testid="cw-diff-name">
            {diff ? (
              <SafeText text={diff.name} max={80} />
            ) : value.diff ? (
              <>
                <SafeText text={value.diff.name} max={80} /> (in use)
              </>
            ) : (
              'no diff chosen'
            )}
          </span>
          <label htmlFor={`${id}-max`}>--max-chars</label>
          <input
            id={`${id}-max`}
            type="text"
            inputMode="numeric"
            size={8}
            value={maxChars}
            placeholder={String(value.diff?.maxChars ?? DEFAULT_MAX_CHARS)}
            aria-invalid={error?.field === 'max' || undefined}
            aria-describedby={`${id}-diff-help${error?.field === 'max' ? ` ${id}-error` : ''}`}
            onChange={(e) => setMaxChars(e.target.value)}
            data-testid="cw-max-chars"
          />
        </div>
        <p className="muted" id={`${id}-diff-help`}>
          The <code>git diff</code> output a CodeWhale review receipt was written for, and the <code>--max-chars</code> the review ran with (default{' '}
          {DEFAULT_MAX_CHARS.toLocaleString('en-US')}). Review receipts are unsigned: checking one against its diff is an integrity check, not an authenticity
          check.
        </p>
        {error && (
          <p role="alert" className="banner bad" id={`${id}-error`} data-testid="dialect-error">
            {error.message}
          </p>
        )}
        <div className="picker-row">
          <button type="submit" className="button primary" data-testid="dialect-apply">
            {hasLog ? 'Verify again with this key/diff' : 'Use this key/diff'}
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
              Forget the key and diff{hasLog ? ' and verify again' : ''}
            </button>
          )}
        </div>
      </form>
    </details>
  );
}
