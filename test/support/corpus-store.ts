// Test-only: a corpus case through the browser's per-record path (views on), into a RowStore that
// received its rows in two shuffled batches, as the log worker sends them, with the report applied.
import { DIALECT_FAMILIES } from '../../lib/dialects/families';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RowStore } from '../../lib/query/row-store';
import { splitRecords } from '../../lib/sources/records';
import { PACKAGE_FILES, roleForFileName } from '../../lib/sources/package';
import { TrustStore } from '../../lib/trust/trust-store';
import { LogAssembler } from '../../lib/verify/log-assembler';
import { recordVerifier } from '../../lib/verify/record-checker';
import { ORDER_STRIDE, emptyOutput } from '../../lib/verify/record-output';
import type { VerificationReport } from '../../lib/verdict/report';
import { testdataPath } from './testdata';

/** A corpus case through the browser's per-record path, with views, into a RowStore. */
export async function storeOf(name: string): Promise<{ store: RowStore; report: VerificationReport; raw: Record<string, unknown>[] }> {
  const dir = testdataPath(`corpus/${name}`);
  const verifier = recordVerifier(TrustStore.empty(), { views: true, families: DIALECT_FAMILIES });
  const out = emptyOutput();
  const pending: Promise<void>[] = [];
  const raw: Record<string, unknown>[] = [];
  let n = 0;
  for (const [file] of PACKAGE_FILES) {
    const bytes = new Uint8Array(readFileSync(path.join(dir, file)));
    for await (const ev of splitRecords(
      file,
      (async function* () {
        yield bytes;
      })(),
    )) {
      if (ev.kind !== 'record') continue;
      if (file === 'receipts.ndjson' || file === 'child-receipts.ndjson') raw.push(JSON.parse(ev.text).receipt);
      pending.push(...verifier.verify(ev.text, { file, line: ev.line, role: roleForFileName(file), space: 'p' }, n++ * ORDER_STRIDE, out));
    }
  }
  await Promise.all(pending);
  const assembler = new LogAssembler();
  assembler.add(out);
  const report = assembler.finish(false);
  const store = new RowStore();
  // Arrive in two shuffled halves, as worker batches do.
  store.append(out.views.slice(150));
  store.append(out.views.slice(0, 150));
  store.applyReport(report);
  return { store, report, raw };
}
