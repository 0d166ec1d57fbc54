'use client';
// One receipt id, several receipts of the log (`duplicate_receipt_id`: a forged copy beside the
// genuine one, or the same receipt loaded from two sources): every copy with its source, file,
// line, signer and verdict, each opening its own page. The receipt page shows this list beside
// the copy it names, and alone when its link names no copy or one that several copies fit.
// Everything here is the log's text: rendered with SafeText only.
import Link from 'next/link';
import type { CopyAddress } from '../../lib/query/receipt-address';
import { namesCopy, rowUrl } from '../../lib/query/receipt-address';
import { type RowStore, VERDICT_LABEL } from '../../lib/query/row-store';
import { SafeText } from '../ui/safe-text';
import { ReceiptHeading } from './receipt-detail';

const at = (a: CopyAddress) => `${a.file ?? '?'}${a.line !== undefined ? `:${a.line}` : ''}${a.from !== undefined ? ` in ${a.from}` : ''}`;

/** The copies of `id` (rows, log order); `current`: the one the page shows, if any. `view`: the `?source=` the links keep. */
export function ReceiptCopies({
  id,
  store,
  copies,
  current,
  view,
}: {
  id: string;
  store: RowStore;
  copies: readonly number[];
  current?: number;
  view: string | null;
}) {
  return (
    <section className="receipt-copies" data-testid="receipt-copies" data-count={copies.length}>
      {copies.length > 1 ? (
        <>
          <h2>{copies.length} receipts with this id</h2>
          <p className="banner warn" role="note">
            A receipt id names one receipt, but {copies.length} receipts of this log carry{' '}
            <code>
              <SafeText text={id} max={80} />
            </code>{' '}
            (<code>duplicate_receipt_id</code>). Each is verified on its own: open each to see which one its signer and checkpoint vouch for.
          </p>
        </>
      ) : (
        <h2>The receipt with this id</h2>
      )}
      <div className="table-scroll">
        <table className="grid compact">
          <thead>
            <tr>
              <th scope="col">file:line</th>
              <th scope="col">verdict</th>
              <th scope="col">source</th>
              <th scope="col">signer</th>
              <th scope="col">type</th>
            </tr>
          </thead>
          <tbody>
            {copies.map((r) => {
              const verdict = store.verdictOf(r);
              const here = r === current;
              const place = <SafeText text={`${store.str('file', r) ?? '?'}:${store.line[r]}`} max={80} expandable={false} />;
              // The copy's place opens it (first, so a narrow window shows it and its verdict without scrolling).
              return (
                <tr
                  key={r}
                  data-testid="receipt-copy"
                  data-verdict={verdict}
                  data-file={store.str('file', r) ?? ''}
                  data-line={store.line[r]}
                  aria-current={here ? 'page' : undefined}
                >
                  <td>
                    {here ? (
                      <strong title="the copy shown on this page">{place} (this page)</strong>
                    ) : (
                      <Link href={rowUrl(store, r, view)} data-testid="receipt-copy-link" title="open this copy">
                        {place}
                      </Link>
                    )}
                  </td>
                  <td className={`verdict ${verdict}`}>{VERDICT_LABEL[verdict]}</td>
                  <td>
                    <SafeText text={store.str('source', r) ?? '—'} max={80} />
                  </td>
                  <td>
                    <code>
                      <SafeText text={store.str('kernelKey', r)?.slice(0, 16) ?? 'none'} max={20} expandable={false} />
                    </code>
                  </td>
                  <td>{store.str('type', r) ?? ''}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The page of an id whose link names no single copy: none fits the address, or several do. */
export function UnresolvedCopy({
  id,
  store,
  copies,
  at: address,
  view,
  label,
}: {
  id: string;
  store: RowStore;
  copies: readonly number[];
  at: CopyAddress;
  view: string | null;
  label: string;
}) {
  const named = namesCopy(address);
  const fit = copies.filter(
    (r) =>
      (address.file === undefined || store.str('file', r) === address.file) &&
      (address.line === undefined || store.line[r] === address.line) &&
      (address.from === undefined || store.str('source', r) === address.from),
  ).length;
  return (
    <article className="receipt">
      <ReceiptHeading id={id} />
      <p role="alert" data-testid="receipt-verdict" data-verdict="ambiguous" className="banner bad">
        {named && fit === 0 ? (
          <>
            The open log (<SafeText text={label} max={120} />) has no receipt{' '}
            <code>
              <SafeText text={id} max={80} />
            </code>{' '}
            at <SafeText text={at(address)} max={200} />.
          </>
        ) : (
          <>
            This id names {copies.length} receipts of the open log (<SafeText text={label} max={120} />)
            {named ? (
              <>
                , and {fit} of them fit <SafeText text={at(address)} max={200} />
              </>
            ) : (
              ''
            )}
            : choose the copy you mean. No verdict is shown for the id alone.
          </>
        )}
      </p>
      <ReceiptCopies id={id} store={store} copies={copies} view={view} />
    </article>
  );
}
