'use client';
// Who signed: every kernel key the log shows, how many verified receipts of
// the selection it signed, and whether this browser pins it (and for when).
// Pinning is the reader's act, on /trust.
import Link from 'next/link';
import { type ComplianceSelection, type SignerRow, explorerLink } from '../../../lib/readers/compliance';
import { DEMO_KERNEL_KEY } from '../../../lib/trust/known-keys';
import { formatTime } from '../../explorer/format';
import { SafeText } from '../../ui/safe-text';

const fmt = (n: number) => n.toLocaleString('en-US');

function validity(e: { not_before?: number; not_after?: number }): string {
  if (e.not_before === undefined && e.not_after === undefined) return 'at any time';
  if (e.not_after === undefined) return `from ${formatTime(e.not_before!)} UTC`;
  if (e.not_before === undefined) return `until ${formatTime(e.not_after)} UTC`;
  return `${formatTime(e.not_before)} – ${formatTime(e.not_after)} UTC`;
}

export function SignersSection({ signers, pinned, selection }: { signers: SignerRow[]; pinned: boolean; selection: ComplianceSelection }) {
  const unpinned = signers.filter((s) => s.pins.length === 0);
  return (
    <section className="report-section" aria-labelledby="signers-heading" data-testid="signers-section">
      <h2 id="signers-heading">Who signed: kernel keys</h2>
      <p className="lede">
        A signature proves a receipt is unchanged since a key signed it. Only a key you pinned (from a source you trust, not from the log) says
        <em> whose</em> kernel that was.
      </p>
      {!pinned ? (
        <p className="banner warn" data-testid="signers-none-pinned">
          <strong>No key is pinned.</strong> The signatures show that the log is self-consistent, not who signed it.{' '}
          <Link href="/trust" className="no-print">
            Pin the kernel keys you know
          </Link>
        </p>
      ) : unpinned.length > 0 ? (
        <p className="banner bad" data-testid="signers-unpinned">
          <strong>
            {fmt(unpinned.length)} signing key{unpinned.length === 1 ? ' is' : 's are'} not pinned:
          </strong>{' '}
          receipts and checkpoints they signed failed <code>signer_trusted</code> and are not counted.{' '}
          <Link href="/trust" className="no-print">
            Manage pinned keys
          </Link>
        </p>
      ) : null}
      {signers.length === 0 ? (
        <p className="muted">The log holds no signed record.</p>
      ) : (
        <table className="grid compact signers" data-testid="signers">
          <thead>
            <tr>
              <th scope="col">kernel key</th>
              <th scope="col">pinned?</th>
              <th scope="col" className="num">
                verified receipts here
              </th>
              <th scope="col" className="num">
                whole log: receipts, checkpoints
              </th>
            </tr>
          </thead>
          <tbody>
            {signers.map((s) => (
              <tr key={s.key} data-key={s.key} data-pinned={String(s.pins.length > 0)} data-receipts={s.receipts}>
                <th scope="row">
                  <code className="hash">
                    <SafeText text={s.key} max={140} />
                  </code>
                  {s.key === DEMO_KERNEL_KEY && <div className="muted small">the published demo kernel key</div>}
                </th>
                <td className={s.pins.length ? 'good' : 'bad'}>
                  {s.pins.length ? (
                    s.pins.map((p, i) => (
                      <div key={i}>
                        <strong>pinned</strong>
                        {p.label ? (
                          <>
                            {' '}
                            as “<SafeText text={p.label} max={80} />”
                          </>
                        ) : (
                          ''
                        )}
                        , {validity(p)}
                      </div>
                    ))
                  ) : (
                    <>
                      <strong>not pinned</strong>{' '}
                      <Link href="/trust" className="no-print">
                        pin…
                      </Link>
                    </>
                  )}
                </td>
                <td className="num">
                  <Link href={explorerLink(selection, { kernelKey: [s.key] })}>{fmt(s.receipts)}</Link>
                </td>
                <td className="num">
                  {fmt(s.logReceipts)}, {fmt(s.checkpoints)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
