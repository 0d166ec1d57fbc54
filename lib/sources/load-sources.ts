// A log's sources read into a LogSink (contract §2 record shapes, §5 `manifest`):
// the one place that switches on what a source is — an evidence-package folder,
// loose NDJSON/JSON files, a SQLite receipt store, a page of a fleet server, or a
// URL of one of these. What differs between the command line and the page comes
// in through the platform's adapter: the inputs it made (each with its own
// handles to read bytes, list a folder, fetch), sql.js, how large a store may be.
// Node's adapter is bin/cli/node-platform.ts, the browser's ../workers/browser-platform.ts.
import type { SqlJsStatic } from 'sql.js';
import type { LogSink, RecordBytes } from '../verify/log-sink';
import type { RecordOrigin } from '../verify/record-output';
import { makeProblem } from '../verdict/problems';
import { type FleetPage, loadFleetPage } from './fleet-page';
import type { LineageCollector } from './lineage';
import { type SourceDir, type SourceFile, loadFile, loadPackage } from './package';
import { type MAX_SQLITE_BYTES, sqliteTooLarge } from './sqlite-size';
import { openChioStore } from './sqlite-store';
import type { ChioStoreReader } from './sqlite-rows';
import { loadStore } from './store';

/** Gets the length of every chunk read (the page's progress bar). */
export type Counter = (bytes: number) => void;

/** A SQLite store read whole (sql.js holds the whole image): its size first, so a store too large is refused unread. */
export interface StoreBytes {
  size: number;
  db(): Promise<Uint8Array>;
  /** Its `-wal`, when there is one (an empty one is nothing to apply). */
  wal?(): Promise<Uint8Array | undefined>;
}

/** One source, as a platform's adapter made it. `count` goes to the reader that loads it, never to one kept for later. */
export type LogInput = {
  /** What problems and the page's links call it (LogSink.beginSource): a folder, file, store or URL. */
  name: string;
  /** The seq space of its receipts and checkpoints. */
  space: string;
} & (
  | { kind: 'package'; dir(count: Counter): SourceDir }
  /** Loose files read as one log (one file, or the JSON/NDJSON files of a folder that is not a package). */
  | { kind: 'files'; files: { display: string; open(count: Counter): SourceFile }[] }
  /**
   * `file`: the store's name in the report; `label`: in messages about it. A store that cannot be
   * read is refused: `problem` reports it and goes on, `throw` ends the load (RefusedSource).
   */
  | { kind: 'store'; file: string; label: string; refuse: 'problem' | 'throw'; read(): Promise<StoreBytes> }
  | { kind: 'fleet'; page(count: Counter): Promise<FleetPage> }
  /** Resolved by the platform (SourcePlatform.url) once it is read, so a bad URL fails as its own source. */
  | { kind: 'url'; url: string }
);

/** What the loader needs of the platform it runs on. */
export interface SourcePlatform {
  /** Which limit applies to a SQLite store (sqlite-size.ts): the page's or the command line's. */
  readonly sqliteLimit: keyof typeof MAX_SQLITE_BYTES;
  /** sql.js, loaded this platform's way. */
  sqlJs(): Promise<SqlJsStatic>;
  /** What a URL names: a package, a store or a file, read over this platform's fetch. */
  url?(url: string, name: string, space: string): LogInput;
}

/** Whoever reads a receipt again after the report (the page's RecordHost): what was opened, by source name. */
export interface SourceKeeper {
  addPackage(dir: SourceDir, source: string): void;
  addFile(file: SourceFile, name: string, source: string): void;
  addStore(name: string, store: ChioStoreReader, source: string): void;
}

export interface LoadOptions {
  platform: SourcePlatform;
  count?: Counter;
  /** Keeps what was opened; without it, a store is closed once read. */
  keep?: SourceKeeper;
  /** Collects the capability lineage the sources carry (the page's DAG; unsigned context). */
  lineage?: LineageCollector;
  /** Runs one source's load: the page turns a failure into a problem naming it; by default it ends the load. */
  isolate?(name: string, load: () => Promise<void>): Promise<void>;
}

/** A store that cannot be read, from an input whose `refuse` is `throw`. */
export class RefusedSource extends Error {
  constructor(
    readonly reason: 'too-large' | 'unreadable' | 'not-a-store',
    message: string,
  ) {
    super(message);
  }
}

const uncounted: Counter = () => undefined;

/** Reads `inputs`, in order, into `sink`. */
export async function loadSources(inputs: readonly LogInput[], sink: LogSink, options: LoadOptions): Promise<void> {
  const target = options.lineage ? withLineage(sink, options.lineage) : sink;
  for (const input of inputs) {
    // Each is a source of its own: receipts are addressed by it, and it fails on its own.
    target.beginSource?.(input.name);
    const load = () => loadInput(input, target, options);
    await (options.isolate ? options.isolate(input.name, load) : load());
  }
}

async function loadInput(input: LogInput, sink: LogSink, o: LoadOptions): Promise<void> {
  const count = o.count ?? uncounted;
  switch (input.kind) {
    case 'package':
      await loadPackage(input.dir(count), sink, input.space);
      o.keep?.addPackage(input.dir(uncounted), input.name);
      return;
    case 'files':
      for (const f of input.files) {
        await loadFile(f.open(count), sink, input.space, f.display);
        o.keep?.addFile(f.open(uncounted), f.display, input.name);
      }
      return;
    case 'store':
      return loadStoreInput(input, sink, o);
    case 'fleet':
      for (const file of await loadFleetPage(await input.page(count), sink, input.space)) o.keep?.addFile(file, file.name, input.name);
      return;
    case 'url': {
      if (!o.platform.url) throw new Error(`${input.url}: URLs are not read here`);
      return loadInput(o.platform.url(input.url, input.name, input.space), sink, o);
    }
  }
}

async function loadStoreInput(input: Extract<LogInput, { kind: 'store' }>, sink: LogSink, o: LoadOptions): Promise<void> {
  const refuse = (reason: RefusedSource['reason'], message: string) => {
    if (input.refuse === 'throw') throw new RefusedSource(reason, message);
    sink.addProblem(makeProblem('parse_error', message, { file: input.file }));
  };
  const bytes = await input.read();
  const tooLarge = sqliteTooLarge(input.label, bytes.size, o.platform.sqliteLimit);
  if (tooLarge) return refuse('too-large', tooLarge);
  const db = await bytes.db();
  const wal = await bytes.wal?.();
  o.count?.(db.length + (wal?.length ?? 0));
  const opened = openChioStore(await o.platform.sqlJs(), db, wal && wal.length > 0 ? wal : undefined);
  if (!opened.ok) return refuse('not-a-store', `${input.label}: ${opened.message}`);
  o.keep?.addStore(input.file, opened.store, input.name);
  try {
    await loadStore(opened.store, input.file, sink, input.space);
    o.lineage?.addSet(opened.store.capabilityLineage(input.file));
  } finally {
    if (!o.keep) opened.store.close();
  }
}

/** `sink`, with a copy of each lineage record's text kept (the records still go on: the verifier judges them). */
function withLineage(sink: LogSink, lineage: LineageCollector): LogSink {
  const begin = sink.beginSource?.bind(sink);
  return {
    addRecord(text: string, origin: RecordOrigin, at?: RecordBytes) {
      if (origin.role === 'lineage') lineage.addText(text, origin.file);
      return sink.addRecord(text, origin, at);
    },
    addProblem: (problem) => sink.addProblem(problem),
    addPackage: (pkg, problems) => sink.addPackage(pkg, problems),
    setSpaceNote: (space, note) => sink.setSpaceNote(space, note),
    ...(begin ? { beginSource: begin } : {}),
  };
}
