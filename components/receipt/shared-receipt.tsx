'use client';
// Opens a self-contained share link: decodes the bundle from the URL fragment,
// verifies it in this browser under the keys pinned here (not the sender's),
// and lays the receipt open. The link is untrusted input like any log.
import Link from 'next/link';
import { useEffect, useMemo, useState } from 'react';
import { buildDossier } from '../../lib/receipt/dossier';
import { decodeBundle, verifyBundle } from '../../lib/share/bundle';
import type { ReceiptBundle } from '../../lib/sources/receipt-bundle';
import { toPinnedKeys } from '../../lib/trust/trust-file';
import { TrustStore } from '../../lib/trust/trust-store';
import { type VerificationReport, checkpointState, isIntactUnpinned } from '../../lib/verdict/report';
import { VERDICT_LABEL, rowVerdictOf } from '../../lib/query/row-store';
import { UnpinnedNotice } from '../trust/unpinned-notice';
import { useTrust } from '../data/trust-provider';
import { DecisionView, DossierView } from './dossier-view';
import { CHECKS_ID, Checklist } from './receipt-detail';
import { ReceiptBar } from './receipt-bar';
import { SafeText } from '../ui/safe-text';

type State = { status: 'reading' } | { status: 'bad'; message: string } | { status: 'done'; bundle: ReceiptBundle; report: VerificationReport };

export function SharedReceipt() {
  const { trust, trustLoaded } = useTrust();
  const [fragment, setFragment] = useState<string | null>(null);
  const [state, setState] = useState<State>({ status: 'reading' });
  useEffect(() => {
    const read = () => setFragment(window.location.hash.replace(/^#/, ''));
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);
  useEffect(() => {
    if (fragment === null || !trustLoaded) return;
    let live = true;
    setState({ status: 'reading' });
    void (async () => {
      if (!fragment) return setState({ status: 'bad', message: 'This link carries no receipt (nothing after #).' });
      const decoded = await decodeBundle(fragment);
      if (!decoded.ok) return live && setState({ status: 'bad', message: `This link cannot be read: ${decoded.message}.` });
      const store = TrustStore.create(toPinnedKeys(trust));
      const report = await verifyBundle(decoded.bundle, store.ok ? store.store : TrustStore.empty());
      if (live) setState({ status: 'done', bundle: decoded.bundle, report });
    })();
    return () => {
      live = false;
    };
  }, [fragment, trust, trustLoaded]);
  const dossier = useMemo(() => (state.status === 'done' ? buildDossier(state.bundle) : null), [state]);

  if (state.status === 'reading')
    return (
      <p data-testid="receipt-verdict" data-verdict="pending">
        Verifying the shared receipt in this browser…
      </p>
    );
  if (state.status === 'bad') {
    return (
      <p role="alert" data-testid="receipt-verdict" data-verdict="missing" className="banner bad">
        <SafeText text={state.message} max={400} />
      </p>
    );
  }
  const { report, bundle } = state;
  const r = report.receipts[0];
  const cp = report.checkpoints[0];
  const d = dossier?.ok ? dossier.dossier : null;
  return (
    <article className="receipt">
      <p className="muted">
        A shared receipt. The link carried it with its checkpoint and inclusion proof; nothing was fetched, and it was checked here, now, under the keys pinned
        in this browser.
      </p>
      {r ? (
        <>
          <h1>
            <code>
              <SafeText text={r.id} max={200} />
            </code>
          </h1>
          <ReceiptBar state={rowVerdictOf(r)} checks={r.checks} checksId={CHECKS_ID} />
          <p
            data-testid="receipt-verdict"
            data-verdict={r.verdict}
            data-state={rowVerdictOf(r)}
            className={`banner ${r.verdict === 'verified' ? 'ok' : isIntactUnpinned(r) ? 'unpinned' : 'bad'}`}
          >
            <strong>{VERDICT_LABEL[rowVerdictOf(r)]}</strong> — {r.type} receipt{r.generation ? ` (Gen ${r.generation})` : ''}, checked alone with{' '}
            {cp ? `checkpoint ${cp.checkpoint_seq} (${VERDICT_LABEL[checkpointState(cp)]})` : 'no checkpoint'}.
          </p>
          {isIntactUnpinned(r) && <UnpinnedNotice keys={report.keys.map((k) => k.key)} count={1} what="receipt" />}
        </>
      ) : (
        <p role="alert" data-testid="receipt-verdict" data-verdict="missing" className="banner bad">
          The link holds no readable receipt: <SafeText text={report.problems.map((p) => p.message).join('; ')} max={400} />
        </p>
      )}
      <p data-testid="share-trust">
        {trust.length === 0 ? (
          <>
            No kernel key is pinned in this browser, so the signature shows only that the receipt is intact, not who signed it, and it is not verified.{' '}
            <Link href="/trust">Pin the kernel&apos;s key</Link> to check the signer.
          </>
        ) : (
          <>
            Trusted here (pinned in this browser):{' '}
            {trust.map((t, i) => (
              <code key={i}>
                {t.label ? (
                  <>
                    <SafeText text={t.label} max={80} />{' '}
                  </>
                ) : (
                  ''
                )}
                <SafeText text={t.key} max={140} />
              </code>
            ))}
            . The sender&apos;s keys play no part.
          </>
        )}
      </p>
      {bundle.origin && (
        <p className="muted">
          The link says the receipt comes from <SafeText text={bundle.origin.source} max={120} />,{' '}
          <SafeText text={`${bundle.origin.file}:${bundle.origin.line}`} max={120} /> (unverified: anyone can write this).
        </p>
      )}
      {d && <DecisionView d={d} />}
      {r && (
        <>
          <h2 id={CHECKS_ID}>Checks</h2>
          <Checklist checks={r.checks} {...(r.details ? { details: r.details } : {})} />
        </>
      )}
      {report.problems.length > 0 && (
        <>
          <h2>Problems</h2>
          <ul data-testid="receipt-problems">
            {report.problems.map((p, i) => (
              <li key={i}>
                <code>{p.code}</code> <SafeText text={p.message} max={400} />
              </li>
            ))}
          </ul>
        </>
      )}
      {dossier && !dossier.ok && (
        <p className="banner bad">
          The receipt cannot be laid open: <SafeText text={dossier.message} max={400} />
        </p>
      )}
      {d && <DossierView d={d} />}
    </article>
  );
}
