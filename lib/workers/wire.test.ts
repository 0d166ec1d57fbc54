// The verify workers' compact messages (wire.ts): real corpus records, checked
// by a real RecordVerifier, cross a structured clone in the compact form and
// come back with every field and value; and the form is what it is for, far
// smaller than the plain clone.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serialize } from 'node:v8';
import { PACKAGE_FILES, roleForFileName } from '../sources/package';
import { splitRecords } from '../sources/records';
import { testdataPath } from '../../test/support/testdata';
import { TrustStore } from '../trust/trust-store';
import { packHashes } from '../verify/pack-hashes';
import { recordVerifier } from '../verify/record-checker';
import { ORDER_STRIDE, emptyOutput, markFailedViews, type RecordOutput } from '../verify/record-output';
import type { RecordTask } from './protocol';
import { batchFromWire, batchToWire, fromColumns, outputFromWire, outputToWire, toColumns } from './wire';

async function tasksOf(dir: string): Promise<RecordTask[]> {
  const out: RecordTask[] = [];
  for (const [name] of PACKAGE_FILES) {
    const bytes = new Uint8Array(readFileSync(path.join(dir, name)));
    for await (const ev of splitRecords(
      name,
      (async function* () {
        yield bytes;
      })(),
    )) {
      if (ev.kind === 'record')
        out.push({
          text: ev.text,
          origin: { file: name, line: ev.line, role: roleForFileName(name), space: 'pkg', ...(ev.line % 3 === 0 ? { seq: BigInt(ev.line) } : {}) },
          order: out.length * ORDER_STRIDE,
        });
    }
  }
  return out;
}

async function outputOf(tasks: RecordTask[]): Promise<RecordOutput> {
  const verifier = recordVerifier(TrustStore.empty(), { views: true });
  const out = emptyOutput();
  await Promise.all(tasks.flatMap((t) => verifier.verify(t.text, t.origin, t.order, out)));
  markFailedViews(out);
  packHashes(out);
  return out;
}

describe('compact worker messages', () => {
  it.each(['good', 'tampered-field', 'duplicate-key'])('corpus %s: a batch and its output cross a clone with every field and value', async (name) => {
    const tasks = await tasksOf(testdataPath(`corpus/${name}`));
    expect(tasks.length).toBeGreaterThan(100);
    expect(await batchFromWire(structuredClone(batchToWire(tasks)))).toEqual(tasks);

    const out = await outputOf(tasks);
    expect(out.receipts.length).toBeGreaterThan(50);
    expect(out.views.length).toBe(out.receipts.length);
    const back = outputFromWire(structuredClone(outputToWire(out)));
    // toEqual also compares the hashes byte by byte, bigints by value, and nested checks and proofs.
    expect(back).toEqual(structuredClone(out));
    expect(back.receipts.map((r) => Object.keys(r).sort())).toEqual(out.receipts.map((r) => Object.keys(r).sort()));
  });

  it('the good corpus: receipts and views take under 40% of their plain structured-clone size', async () => {
    const out = await outputOf(await tasksOf(testdataPath('corpus/good')));
    const wire = outputToWire(out);
    const plain = serialize([out.receipts, out.views]).length;
    const compact = serialize([wire.receipts, wire.checks, wire.views]).length;
    expect(compact).toBeLessThan(plain * 0.4);
  });

  it("records of a file travel as byte ranges of it, and the worker reads exactly the splitter's texts", async () => {
    // A BOM, CRLF, blank lines, non-ASCII and a line over the limit between records.
    const file = new TextEncoder().encode(`\ufeff{"a":"é"}\r\n\n{"b":"😀"}\n${'x'.repeat(40)}\n{"c":3}\n`);
    const blob = new Blob([file]);
    const tasks: RecordTask[] = [];
    const ranged: RecordTask[] = [];
    for await (const ev of splitRecords(
      'f.ndjson',
      (async function* () {
        yield file;
      })(),
      { maxRecordBytes: 20 },
    )) {
      if (ev.kind !== 'record') continue;
      const origin = { file: 'f.ndjson', line: ev.line, role: 'tool' as const, space: 's' };
      tasks.push({ text: ev.text, origin, order: tasks.length * ORDER_STRIDE });
      ranged.push({ text: '', origin, order: ranged.length * ORDER_STRIDE, at: { start: ev.start!, end: ev.end! } });
    }
    expect(tasks.map((t) => t.text)).toEqual(['{"a":"é"}', '{"b":"😀"}', '{"c":3}']);
    // One record keeps its text (a batch may mix them).
    ranged[1] = tasks[1]!;
    const wire = batchToWire(ranged, blob);
    expect(wire.ranges).toEqual([3, 13, -1, -1, ...[ranged[2]!.at!.start, ranged[2]!.at!.end]]);
    expect(wire.texts.join('')).toBe(tasks[1]!.text);
    expect(await batchFromWire(structuredClone(wire))).toEqual(tasks);

    // The file read again says something else there: the worker refuses, naming the record.
    const changed = batchToWire(ranged, new Blob([new Uint8Array(file.length).fill(0xff)]));
    await expect(batchFromWire(changed)).rejects.toThrow('f.ndjson:1 reads differently now than when it was split');
    // A file that cannot be read any more is named, with where its batch starts.
    const gone = {
      ...batchToWire(ranged, blob),
      blob: { slice: () => ({ arrayBuffer: () => Promise.reject(new Error('NotReadableError')) }) } as unknown as Blob,
    };
    await expect(batchFromWire(gone)).rejects.toThrow(
      'f.ndjson could not be read again at line 1 (NotReadableError): was it changed or removed while it was verified?',
    );
  });

  it('columns keep absent fields absent, tell strings from other values, and widen codes past 255 distinct strings', () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({
      id: `r${i}`,
      kind: i % 2 ? 'a' : 'b',
      ...(i % 5 === 0 ? { n: BigInt(i), s: '' } : {}),
      mixed: i % 7 === 0 ? 7 : 'x',
    }));
    const cols = toColumns(rows);
    const id = cols.columns.find((c) => c.key === 'id')!;
    expect('dict' in id && id.codes).toBeInstanceOf(Uint16Array);
    expect(cols.columns.find((c) => c.key === 'mixed')).toHaveProperty('values');
    const back = fromColumns<(typeof rows)[number]>(structuredClone(cols));
    expect(back).toEqual(rows);
    expect(back.filter((r) => 'n' in r).length).toBe(60);
    expect(back[0]!.s).toBe('');
  });
});
