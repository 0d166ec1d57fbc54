'use client';
// /finance: the shared log in the reader shell, then the finance view.
import { ReaderShell } from '../reader-shell';
import { FinanceView } from './finance-view';

export function FinanceReader() {
  return <ReaderShell>{(data) => <FinanceView {...data} />}</ReaderShell>;
}
