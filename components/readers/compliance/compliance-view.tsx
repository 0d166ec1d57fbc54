'use client';
// The compliance view (/compliance): which policy was in force when, what the
// checkpoints cover, how receipts were produced (trust levels, Gen B kinds and
// boundaries), who signed them and whether those keys are pinned, and what
// was checked — for a time range and/or one policy kept in the URL. The page
// is also the printable report (print stylesheet in app/globals.css). Data
// comes from lib/readers/compliance*.ts; this file binds the URL and lays out.
import { useSearchParams } from 'next/navigation';
import { useReplaceQuery } from '../../data/use-replace-query';
import { useCallback, useMemo } from 'react';
import {
  type ComplianceSelection,
  logTimeSpan,
  policyTimeline,
  selectionFromParams,
  selectionTest,
  selectionToParams,
  signers,
  trustAndKinds,
} from '../../../lib/readers/compliance';
import { coverageOverTime, rangeReport, reportColumns } from '../../../lib/readers/compliance-report';
import { verifiedScope } from '../../../lib/readers/scope';
import { describeSources } from '../../../lib/workers/protocol';
import { useLogOpener } from '../../data/log-contexts';
import { useTrust } from '../../data/trust-provider';
import { type ReaderData, ReaderShell, VerifiedNote } from '../reader-shell';
import { ChecksSection } from './checks-section';
import { CoverageSection } from './coverage-section';
import { KindsSection } from './kinds-section';
import { PolicySection } from './policy-section';
import { ReportScope } from './report-scope';
import { tallyLog } from '../../../lib/overview/headline';
import { SelectionControls } from './selection-controls';
import { SignersSection } from './signers-section';

export function ComplianceView() {
  const params = useSearchParams();
  const replaceQuery = useReplaceQuery();
  const selection = useMemo(() => selectionFromParams(new URLSearchParams(params.toString())), [params]);
  const select = useCallback((next: ComplianceSelection) => replaceQuery(selectionToParams(next)), [replaceQuery]);
  return <ReaderShell>{(data) => <Compliance data={data} selection={selection} onSelect={select} />}</ReaderShell>;
}

function Compliance({ data, selection, onSelect }: { data: ReaderData; selection: ComplianceSelection; onSelect: (s: ComplianceSelection) => void }) {
  const { store, report, label } = data;
  const log = useMemo(() => logTimeSpan(store), [store]);
  // The whole log's policies, in order: their ordinals name them whatever the range.
  const whole = useMemo(() => policyTimeline(store, data.scope.rows), [store, data.scope]);
  const names = useMemo(() => new Map(whole.policies.map((p, i) => [p.policy, i + 1])), [whole]);
  const { sources } = useLogOpener();
  const { trust } = useTrust();
  const { since, until, policy } = selection;
  // The timeline shows every policy of the range; everything else also narrows to the chosen policy.
  const ranged = since !== undefined || until !== undefined;
  const inRange = useMemo(
    () => (ranged ? verifiedScope(store, selectionTest(store, { since, until })) : data.scope),
    [store, data.scope, ranged, since, until],
  );
  const scope = useMemo(
    () => (policy === undefined ? inRange : verifiedScope(store, selectionTest(store, { since, until, policy }))),
    [store, inRange, since, until, policy],
  );
  const timeline = useMemo(() => (ranged ? policyTimeline(store, inRange.rows) : whole), [store, inRange, ranged, whole]);
  const columns = useMemo(() => reportColumns(store, report), [store, report]);
  const summary = useMemo(
    () => rangeReport(store, report, { since, until, ...(policy !== undefined ? { policy } : {}) }, columns),
    [store, report, since, until, policy, columns],
  );
  const overTime = useMemo(() => (columns ? coverageOverTime(store, scope.rows, columns.inclusion) : null), [store, scope, columns]);
  const kinds = useMemo(() => trustAndKinds(store, scope.rows), [store, scope]);
  const keys = useMemo(() => signers(store, scope.rows, report, trust), [store, scope, report, trust]);
  const source = useMemo(
    () =>
      sources
        ? describeSources(sources, {
            files: 'names',
            server: typeof window === 'undefined' ? undefined : `this server’s receipt store (${window.location.origin})`,
          })
        : label,
    [sources, label],
  );

  return (
    <div className="compliance" data-testid="compliance" data-counted={scope.rows.length}>
      <SelectionControls selection={selection} onSelect={onSelect} policies={whole.policies} names={names} log={log} />
      <ReportScope
        source={source}
        summary={summary}
        trust={trust}
        pinned={report.trust.pinned}
        names={names}
        log={log}
        unreadable={tallyLog(report).unreadable}
      />
      <VerifiedNote scope={scope} label={label} />
      <PolicySection timeline={timeline} names={names} selection={selection} onSelect={onSelect} />
      <CoverageSection report={report} summary={summary} overTime={overTime} selection={selection} />
      <KindsSection kinds={kinds} total={scope.rows.length} selection={selection} />
      <SignersSection signers={keys} pinned={report.trust.pinned} selection={selection} />
      <ChecksSection summary={summary} selection={selection} />
    </div>
  );
}
