// Problems grouped by code, each linked to what it concerns, on reports the
// verifier produced from the reference corpus and from files with bad lines.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verifyPaths } from '../../bin/cli/main';
import { filterFromParams } from '../query/explorer-filter';
import { testdataPath } from '../../test/support/testdata';
import { TrustStore } from '../trust/trust-store';
import type { VerificationReport } from '../verdict/report';
import { buildCoverage } from './checkpoint-coverage';
import { ProblemLinker, explorerHref, groupProblems, receiptHref } from './problem-groups';

const CORPUS_KEY = 'd04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737';

async function corpus(name: string, keys = [CORPUS_KEY]): Promise<VerificationReport> {
  const t = TrustStore.create(keys.map((key) => ({ key })));
  if (!t.ok) throw new Error(t.error);
  return verifyPaths([testdataPath(`corpus/${name}`)], t.store);
}

function linked(report: VerificationReport) {
  const linker = new ProblemLinker(report, buildCoverage(report));
  return { linker, groups: groupProblems(report, linker) };
}

describe('problem groups', () => {
  it('tampered-field: errors first, each group links its receipts in the explorer, each problem its receipt', async () => {
    const report = await corpus('tampered-field');
    const { linker, groups } = linked(report);
    expect(groups.map((g) => [g.code, g.severity, g.problems.length, g.receipts, g.explorerHref])).toEqual([
      ['signature_invalid', 'error', 1, 1, '/receipts?problem=signature_invalid'],
      ['inclusion_failed', 'error', 1, 1, '/receipts?problem=inclusion_failed'],
      ['reconciliation_break', 'warning', 1, 1, '/receipts?problem=reconciliation_break'],
      // The corpus packages predate readBoundary (contract part 2 §5.3): a warning with no receipt.
      ['read_boundary_missing', 'warning', 1, 0, undefined],
    ]);
    expect(groups[0]!.title).toBe('Receipt signature does not verify');
    expect(groups.map((g) => linker.targetOf(g.problems[0]!))).toEqual([
      // Each at the copy the problem was found at (file and line: one id can name several receipts).
      { kind: 'receipt', href: '/receipts/rcpt-000042-2b8d09ef?file=receipts.ndjson&line=42', receiptId: 'rcpt-000042-2b8d09ef' },
      { kind: 'receipt', href: '/receipts/rcpt-000042-2b8d09ef?file=receipts.ndjson&line=42', receiptId: 'rcpt-000042-2b8d09ef' },
      { kind: 'receipt', href: '/receipts/rcpt-000044-d538f446?file=receipts.ndjson&line=44', receiptId: 'rcpt-000044-d538f446' },
      { kind: 'none' },
    ]);
  });

  it('duplicate-key: the unreadable line leads to its file in the explorer; the proof without a receipt to its checkpoint', async () => {
    const { linker, groups } = linked(await corpus('duplicate-key'));
    expect(groups.map((g) => [g.code, g.receipts, g.explorerHref])).toEqual([
      ['duplicate_key', 0, undefined],
      ['missing_receipt', 0, undefined],
      ['read_boundary_missing', 0, undefined],
    ]);
    const [dup, missing] = groups.map((g) => g.problems[0]!);
    expect([dup!.file, dup!.line]).toEqual(['receipts.ndjson', 5]);
    expect(linker.targetOf(dup!)).toEqual({ kind: 'file', href: '/receipts?file=receipts.ndjson', file: 'receipts.ndjson' });
    expect(linker.targetOf(missing!)).toEqual({ kind: 'checkpoint', href: '#checkpoint-checkpoints.ndjson-1', checkpointSeq: 1n });
  });

  it('bad-checkpoint-signature: the checkpoint problem links to the failed checkpoint on the timeline', async () => {
    const { linker, groups } = linked(await corpus('bad-checkpoint-signature'));
    expect(groups.map((g) => g.code)).toEqual(['checkpoint_signature_invalid', 'read_boundary_missing']);
    expect(linker.targetOf(groups[0]!.problems[0]!)).toEqual({ kind: 'checkpoint', href: '#checkpoint-checkpoints.ndjson-2', checkpointSeq: 2n });
  });

  it('tampered-signature without pinned keys: every problem is reachable, none is dropped', async () => {
    const report = await corpus('tampered-signature', []);
    const { groups } = linked(report);
    expect(groups.reduce((n, g) => n + g.problems.length, 0)).toBe(report.problems.length);
    expect(groups.map((g) => g.code)).toContain('signature_invalid');
  });

  it('lines of files that hold no receipt link nowhere; their location stays in the text', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ra-bad-'));
    writeFileSync(path.join(dir, 'garbage.ndjson'), '{"id": "rcpt-1",\n{not json}\n');
    const report = await verifyPaths(
      [path.join(dir, 'garbage.ndjson'), testdataPath('chio/showcase/derived-from-sqlite/provider-receipts.chio_tool_receipts.ndjson')],
      TrustStore.empty(),
    );
    const { linker, groups } = linked(report);
    // Nothing is pinned here, so the log also says so (part 2 §11): a problem about the log, linking nowhere.
    expect(groups.map((g) => [g.code, g.problems.length])).toEqual([
      ['parse_error', 2],
      ['signer_not_pinned', 1],
    ]);
    expect(linker.targetOf(groups[1]!.problems[0]!).kind).toBe('none');
    expect(groups[0]!.problems.map((p) => [p.line, linker.targetOf(p).kind])).toEqual([
      [1, 'none'],
      [2, 'none'],
    ]);
  });
});

describe('links', () => {
  it('receipt ids are one path segment, whatever they hold', () => {
    expect(receiptHref('a/b?c#d e')).toBe('/receipts/a%2Fb%3Fc%23d%20e');
    expect(receiptHref('a/b?c#d e', 'x&line=9.ndjson', 3)).toBe('/receipts/a%2Fb%3Fc%23d%20e?file=x%26line%3D9.ndjson&line=3');
  });

  it('explorer links read back as the filter they encode', () => {
    const href = explorerHref('file', 'store.sqlite3#chio_tool_receipts');
    expect(href).toBe('/receipts?file=store.sqlite3%23chio_tool_receipts');
    expect(filterFromParams(new URL(href, 'http://x').searchParams).values).toEqual({ file: ['store.sqlite3#chio_tool_receipts'] });
  });
});
