'use client';
// The security view (/security): a health summary first, then what the guards
// denied over time, the deny rate per tool server, the guard evidence matrix,
// and what failed verification. Denial numbers count verified receipts only
// (VerifiedNote); the failure sections are about the receipts that did not
// verify. The chart's grouping and bar width live in the URL (`by`, `bucket`).
import { useSearchParams } from 'next/navigation';
import { useSetQueryParam } from '../../data/use-replace-query';
import { useMemo } from 'react';
import { guardMatrix } from '../../../lib/readers/guard-matrix';
import { BUCKET_SECONDS, denialTotals, denialsOverTime, flaggedReceipts, verificationFailures } from '../../../lib/readers/security';
import { healthSummary } from '../../../lib/readers/security-health';
import { useTrust } from '../../data/trust-provider';
import { type ReaderData, ReaderShell, VerifiedNote } from '../reader-shell';
import { DenialsOverTimeChart } from './denials-over-time';
import { DenyRates } from './deny-rates';
import { FailedVerifications, FlaggedReceipts } from './failed-verifications';
import { GuardMatrixTable } from './guard-matrix-table';
import { HealthSummary } from './health-summary';

export type Grouping = 'guard' | 'tool';

export function SecurityView() {
  const params = useSearchParams();
  const setParam = useSetQueryParam();
  const by: Grouping = params.get('by') === 'tool' ? 'tool' : 'guard';
  const asked = Number(params.get('bucket'));
  const bucket = (BUCKET_SECONDS as readonly number[]).includes(asked) ? asked : undefined;
  const { trust } = useTrust();
  const pinned = useMemo(() => new Set(trust.map((t) => t.key)), [trust]);
  return (
    <ReaderShell>
      {(data) => (
        <SecurityReport
          data={data}
          pinned={pinned}
          by={by}
          bucket={bucket}
          onBy={(b) => setParam('by', b === 'guard' ? undefined : b)}
          onBucket={(s) => setParam('bucket', s === undefined ? undefined : String(s))}
        />
      )}
    </ReaderShell>
  );
}

function SecurityReport({
  data,
  pinned,
  by,
  bucket,
  onBy,
  onBucket,
}: {
  data: ReaderData;
  pinned: ReadonlySet<string>;
  by: Grouping;
  bucket: number | undefined;
  onBy: (b: Grouping) => void;
  onBucket: (s: number | undefined) => void;
}) {
  const { store, report, scope, label } = data;
  const denials = useMemo(() => denialTotals(store, scope), [store, scope]);
  const overTime = useMemo(() => denialsOverTime(store, scope, by, bucket), [store, scope, by, bucket]);
  const matrix = useMemo(() => guardMatrix(store, scope), [store, scope]);
  const failures = useMemo(() => verificationFailures(store, report), [store, report]);
  const unsigned = useMemo(() => flaggedReceipts(store, report, 'unsigned_field'), [store, report]);
  const algorithm = useMemo(() => flaggedReceipts(store, report, 'algorithm_mismatch'), [store, report]);
  const health = useMemo(
    () =>
      healthSummary({
        report,
        scope,
        failures,
        denials,
        unsigned: new Set(unsigned.map((f) => f.receiptId)).size,
        algorithm: new Set(algorithm.map((f) => f.receiptId)).size,
        pinned,
      }),
    [report, scope, failures, denials, unsigned, algorithm, pinned],
  );
  return (
    <div className="security" data-testid="security-view" data-source={label}>
      <p className="lead">What the guards blocked, by whom and when, and which receipts did not pass verification, for {label}.</p>
      <HealthSummary lines={health} />

      <h2>What the guards denied</h2>
      <VerifiedNote scope={scope} label={label} />
      <DenialsOverTimeChart chart={overTime} totals={denials} onBy={onBy} onBucket={onBucket} auto={bucket === undefined} />

      <h2>Deny rate per tool server</h2>
      <p className="muted">The share of each server&apos;s verified calls that a guard denied. Click a row to list its denials.</p>
      <DenyRates servers={denials.servers} />

      <h2>Which guards passed or failed, per tool</h2>
      <GuardMatrixTable matrix={matrix} />

      <h2 id="failed-verification">What failed verification</h2>
      <p className="muted" data-testid="failed-note">
        This part is about the receipts and records that did <strong>not</strong> verify: the sections above leave them out, since their contents cannot be
        trusted.
      </p>
      <FailedVerifications report={report} failures={failures} />

      <h2>Unsigned fields and algorithm mismatches</h2>
      <FlaggedReceipts
        title="Receipts with fields outside their signature"
        explain="These fields are shown by the log but not covered by the signature: anyone could have added or changed them. The receipt itself may still verify."
        items={unsigned}
        code="unsigned_field"
      />
      <FlaggedReceipts
        title="Receipts whose algorithm field disagrees with their signature"
        explain="The signature's own prefix decides the algorithm; a receipt that claims another one fails verification."
        items={algorithm}
        code="algorithm_mismatch"
      />
    </div>
  );
}
