'use client';
// Contract part 2 §11 on the page: receipts that nothing failed but whose signer no pinned key
// vouches for are "intact, signer not pinned", never verified. This says so, names each key that
// signed them in full (to compare with the key the kernel's operator published), and pins one
// only at the user's explicit act, after saying what pinning means.
import Link from 'next/link';
import { useState } from 'react';
import { DEMO_KERNEL_KEY } from '../../lib/trust/known-keys';
import { useTrust } from '../data/trust-provider';
import { SafeText } from '../ui/safe-text';

/**
 * `keys`: the keys that signed the receipts (or checkpoints) in question; `count`: how many
 * receipts are in this state. Nothing shows for none, unless `always` (a log of checkpoints only).
 */
export function UnpinnedNotice({
  keys,
  count,
  what = 'receipts',
  always = false,
}: {
  keys: readonly string[];
  count: number;
  what?: string;
  always?: boolean;
}) {
  const { trust, saveTrust } = useTrust();
  const [asking, setAsking] = useState<string | null>(null);
  const pinned = new Set(trust.map((t) => t.key));
  const one = count === 1;
  const open = keys.filter((k) => !pinned.has(k));
  if (count === 0 && !always) return null;
  return (
    <div className="banner unpinned" role="status" data-testid="unpinned-notice" data-count={count}>
      <p>
        <strong>Intact, signer not pinned.</strong> {count > 0 ? `${count.toLocaleString('en-US')} ${what}: nothing failed, but ` : ''}no pinned key vouches for
        who signed
        {one ? ' it' : ' them'}. A signature under a key the log itself names shows {one ? 'it was' : 'they were'} not changed after signing, not that your
        kernel signed {one ? 'it' : 'them'}: anyone can sign with a key of their own. Nothing is verified until you pin the kernel&apos;s key.
      </p>
      {open.length > 0 && (
        <ul className="unpinned-keys">
          {open.slice(0, 5).map((k) => (
            <li key={k}>
              <code className="key-full">
                <SafeText text={k} max={140} />
              </code>
              {k === DEMO_KERNEL_KEY ? ' (the published demo kernel key)' : ''}{' '}
              <button type="button" className="button" data-testid="pin-key" data-key={k} onClick={() => setAsking(k)}>
                Pin this key…
              </button>
            </li>
          ))}
          {open.length > 5 && (
            <li className="muted">
              and {open.length - 5} more keys (see <Link href="/trust">Trust</Link>)
            </li>
          )}
        </ul>
      )}
      {asking !== null && (
        <p data-testid="pin-confirm">
          Pin{' '}
          <code className="key-full">
            <SafeText text={asking} max={140} />
          </code>
          ? Pin only a key you know to be your kernel&apos;s: compare it, character for character, with the key its operator published. Every receipt it signed
          will then read as verified.{' '}
          <button
            type="button"
            className="button"
            data-testid="pin-confirm-yes"
            onClick={() => {
              saveTrust([...trust, { key: asking, label: asking === DEMO_KERNEL_KEY ? 'demo kernel' : 'pinned from the log' }]);
              setAsking(null);
            }}
          >
            Pin it
          </button>{' '}
          <button type="button" className="button" onClick={() => setAsking(null)}>
            Cancel
          </button>
        </p>
      )}
      <p className="muted">
        <Link href="/trust">Manage pinned keys</Link> (kept in this browser only). A key this browser remembers checkpoints for is not trusted for that.
      </p>
    </div>
  );
}
