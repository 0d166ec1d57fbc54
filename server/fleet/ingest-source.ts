// Server side only (Node): the inputs of `receipt-audit ingest` (./ingest.ts). An evidence
// package folder is read where it is; a Chio SQLite store is first exported as a package into a
// temporary folder (the same export as /v1/evidence/package), which `cleanup` removes.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { writeEvidencePackage } from '../store/export';

export interface Source {
  /** The package folder (or the store file) as given. */
  label: string;
  /** Where a record of `file` at `line` is, for people. */
  where(file: string, line: number, seq?: bigint): string;
  dir: string;
  cleanup?: () => void;
}

/** The package folder of an `ingest` input: the folder itself, or a store exported into a temporary one. */
export async function sourceOf(input: string): Promise<Source> {
  const st = statSync(input, { throwIfNoEntry: false });
  if (!st) throw new Error(`${input}: no such file or folder`);
  if (st.isDirectory()) {
    if (!existsSync(path.join(input, 'receipts.ndjson')) && !existsSync(path.join(input, 'manifest.json')))
      throw new Error(`${input}: not an evidence package (no receipts.ndjson or manifest.json)`);
    return { label: input, dir: input, where: (file, line) => `${path.join(input, file)}:${line}` };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'receipt-audit-ingest-'));
  try {
    const db = new Database(input, { readonly: true, fileMustExist: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
      if (!tables.includes('chio_tool_receipts')) throw new Error(`${input}: not a Chio receipt store (no chio_tool_receipts table)`);
      // The same export the server offers as /v1/evidence/package: proofs rebuilt from each batch.
      await writeEvidencePackage(db, input, path.join(dir, 'pkg'), {}, Math.floor(st.mtimeMs / 1000));
    } finally {
      db.close();
    }
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(why.startsWith(input) ? why : `${input}: not a readable Chio receipt store (${why})`);
  }
  const tableOf = (file: string) =>
    file === 'child-receipts.ndjson'
      ? 'chio_child_receipts'
      : file === 'checkpoints.ndjson'
        ? 'kernel_checkpoints'
        : file === 'inclusion-proofs.ndjson'
          ? 'inclusion proof of'
          : 'chio_tool_receipts';
  return {
    label: input,
    dir: path.join(dir, 'pkg'),
    where: (file, line, seq) => `${input}: ${tableOf(file)} ${seq !== undefined ? `seq ${seq}` : `row ${line}`}`,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
