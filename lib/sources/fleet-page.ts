// A page of `/v1/receipts/query` from a fleet server (CLICKHOUSE_URL, issue 9) as the files the
// verifier reads: per kernel, its receipts (`{"seq":N,"receipt":R}` lines with R's bytes exactly
// as served), the checkpoints and the inclusion proofs that came with them. Each kernel is its own
// log (seq space): checkpoint 3 of one kernel is not checkpoint 3 of another. The kernel's signed
// capability lineage for the page's receipts and the consistency records between its checkpoints
// come along, as `capability-lineage.ndjson` and `checkpoint-consistency-proofs.ndjson`. The server is not
// trusted: its grouping only says where to look, and every receipt, proof and checkpoint is
// verified as if read from a file. A receipt the page lists but no kernel group claims is still
// verified, alone (no seq, so no inclusion). Counts the server gives are index figures.
import { parseJson } from '../json/parse';
import { isJsonArray, isJsonNumber, isJsonObject } from '../json/value';
import { type Span, arrayItems, objectMembers } from '../json/spans';
import type { LogSink } from '../verify/log-sink';
import { type SourceFile, loadFile } from './package';

export interface FleetPageFile {
  /** e.g. `fleet/<kernel key>/receipts.ndjson`: the file name says the role, as in a package. */
  name: string;
  text: string;
}

export interface FleetPageGroup {
  /** The kernel key the server filed these under, or '' for receipts no group claimed. */
  kernelKey: string;
  files: FleetPageFile[];
  receipts: number;
}

export interface FleetPage {
  /** Index figures, as the server gave them (decimal text). */
  totalCount: string;
  nextCursor: string | null;
  receipts: number;
  groups: FleetPageGroup[];
}

const KERNEL = /^[0-9a-f]{64}$/;

type Result = { ok: true; page: FleetPage } | { ok: false; message: string };

function fail(message: string): Result {
  return { ok: false, message };
}

/** Splits a fleet page's text. Not a fleet page, or one that cannot be split: the reason. */
export function splitFleetPage(text: string): Result {
  const top = objectMembers(text, { start: 0, end: text.length });
  if (!top) return fail('the response is not one JSON object');
  const number = (name: string, nullable: boolean): string | null | undefined => {
    const span = top.get(name);
    if (!span) return undefined;
    const v = parseJson(text.slice(span.start, span.end));
    if (v.ok && v.value === null && nullable) return null;
    return v.ok && isJsonNumber(v.value) && v.value.isIntegerLiteral && !v.value.raw.startsWith('-') ? v.value.raw : undefined;
  };
  const totalCount = number('totalCount', false);
  const nextCursor = number('nextCursor', true);
  if (totalCount === undefined || totalCount === null) return fail('totalCount is missing or not a non-negative integer');
  if (nextCursor === undefined) return fail('nextCursor is missing or not a non-negative integer or null');
  const receiptsSpan = top.get('receipts');
  const items = receiptsSpan && arrayItems(text, receiptsSpan);
  if (!items) return fail('receipts is missing or not an array');
  const fleet = top.get('fleet');
  const fleetMembers = fleet && objectMembers(text, fleet);
  const kernelsSpan = fleetMembers?.get('kernels');
  const kernels = kernelsSpan && arrayItems(text, kernelsSpan);
  if (!kernels) return fail('this is not a fleet page (no fleet.kernels)');
  const claimed = new Set<number>();
  const groups: FleetPageGroup[] = [];
  const slice = (s: Span) => text.slice(s.start, s.end);
  for (const [g, span] of kernels.entries()) {
    const members = objectMembers(text, span);
    const key = members?.get('kernelKey') && parseJson(slice(members.get('kernelKey')!));
    const kernelKey = key?.ok && typeof key.value === 'string' ? key.value : '';
    if (!members || !KERNEL.test(kernelKey)) return fail(`fleet.kernels[${g}] has no kernelKey of 64 lowercase hex digits`);
    const list = members.get('receipts') && parseJson(slice(members.get('receipts')!));
    if (!list?.ok || !isJsonArray(list.value)) return fail(`fleet.kernels[${g}].receipts must be an array of {seq, index}`);
    const lines: string[] = [];
    for (const [i, entry] of list.value.entries()) {
      const seq = isJsonObject(entry) ? entry.get('seq') : undefined;
      const index = isJsonObject(entry) ? entry.get('index') : undefined;
      const at = isJsonNumber(index) && /^(0|[1-9][0-9]{0,8})$/.test(index.raw) ? Number(index.raw) : -1;
      if (!isJsonNumber(seq) || !/^(0|[1-9][0-9]*)$/.test(seq.raw) || at < 0 || at >= items.length) {
        return fail(`fleet.kernels[${g}].receipts[${i}] must be {"seq": N, "index": i} with i one of the page's receipts`);
      }
      if (claimed.has(at)) return fail(`receipts[${at}] is claimed by two kernel groups`);
      claimed.add(at);
      lines.push(`{"seq":${seq.raw},"receipt":${slice(items[at]!)}}`);
    }
    const records = (name: string) => {
      const s = members.get(name);
      const found = s ? arrayItems(text, s) : [];
      return found?.map(slice) ?? null;
    };
    const checkpoints = records('checkpoints');
    const proofs = records('inclusionProofs');
    // The kernel's signed lineage for these receipts and its consistency records (absent from older servers).
    const lineage = records('capabilityLineage');
    const consistency = records('consistencyProofs');
    if (!checkpoints || !proofs || !lineage || !consistency)
      return fail(`fleet.kernels[${g}]: checkpoints, inclusionProofs, capabilityLineage and consistencyProofs must be arrays`);
    const dir = `fleet/${kernelKey}`;
    const files = [
      { name: `${dir}/receipts.ndjson`, text: lines.join('\n') },
      { name: `${dir}/checkpoints.ndjson`, text: checkpoints.join('\n') },
      { name: `${dir}/inclusion-proofs.ndjson`, text: proofs.join('\n') },
      { name: `${dir}/capability-lineage.ndjson`, text: lineage.join('\n') },
      { name: `${dir}/checkpoint-consistency-proofs.ndjson`, text: consistency.join('\n') },
    ].filter((f) => f.text !== '');
    groups.push({ kernelKey, files, receipts: lines.length });
  }
  const loose = items.flatMap((span, i) => (claimed.has(i) ? [] : [slice(span)]));
  // A bare receipt per line: read as a receipt of no log (no seq, so no inclusion to check).
  if (loose.length) groups.push({ kernelKey: '', files: [{ name: 'fleet/unfiled-receipts.ndjson', text: loose.join('\n') }], receipts: loose.length });
  // Rows the server left out of the page, each named by table and seq (read by the name's role).
  const problemsSpan = top.get('problems');
  const problems = problemsSpan ? arrayItems(text, problemsSpan) : [];
  if (problems === null) return fail('problems is not an array');
  if (problems.length) groups.push({ kernelKey: '', files: [{ name: 'fleet/export-problems.ndjson', text: problems.map(slice).join('\n') }], receipts: 0 });
  return { ok: true, page: { totalCount, nextCursor, receipts: items.length, groups } };
}

/**
 * Reads a split fleet page into `sink`: each kernel group's files as files of one log of its own
 * (space `${space}:${group}`). Returns the files, for whoever reads a receipt again later.
 */
export async function loadFleetPage(page: FleetPage, sink: LogSink, space: string): Promise<SourceFile[]> {
  const encoder = new TextEncoder();
  const files: SourceFile[] = [];
  for (const [g, group] of page.groups.entries()) {
    for (const f of group.files) {
      const bytes = encoder.encode(f.text);
      const file: SourceFile = {
        name: f.name,
        async *stream() {
          yield bytes;
        },
      };
      await loadFile(file, sink, `${space}:${g}`, f.name);
      files.push(file);
    }
  }
  return files;
}
