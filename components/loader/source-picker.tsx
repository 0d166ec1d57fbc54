'use client';
// Where a log comes from: files or a whole folder (picked or dropped), a URL of
// a package or file, or this server's store. Presentational: sources out.
import { type DragEvent, useRef, useState } from 'react';
import type { LogSource } from '../../lib/workers/protocol';

/** Files from a drop, with folder-relative paths (folders are walked). */
async function droppedFiles(e: DragEvent): Promise<{ file: File; path: string }[]> {
  const entries = [...e.dataTransfer.items].map((i) => i.webkitGetAsEntry?.()).filter((x): x is FileSystemEntry => !!x);
  if (entries.length === 0) return [...e.dataTransfer.files].map((file) => ({ file, path: file.name }));
  const out: { file: File; path: string }[] = [];
  const walk = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    if (entry.isFile) {
      const file = await new Promise<File>((res, rej) => (entry as FileSystemFileEntry).file(res, rej));
      out.push({ file, path: prefix + entry.name });
    } else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
        if (batch.length === 0) break;
        for (const child of batch) await walk(child, `${prefix}${entry.name}/`);
      }
    }
  };
  for (const entry of entries) await walk(entry, '');
  return out;
}

/** Picked files with their folder-relative paths (a folder pick gives webkitRelativePath). */
export const fromInput = (list: FileList | null) => [...(list ?? [])].map((file) => ({ file, path: file.webkitRelativePath || file.name }));

/**
 * `onOpen(sources, add)`: `add` is true when the user asked to add them to the
 * log that is open (verified together as one log) instead of replacing it.
 */
export function SourcePicker({ onOpen, busy, canAdd }: { onOpen: (sources: LogSource[], add: boolean) => void; busy: boolean; canAdd: boolean }) {
  const [over, setOver] = useState(false);
  const [url, setUrl] = useState('');
  const [adding, setAdding] = useState(false);
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  const add = adding && canAdd;
  const openFiles = (files: { file: File; path: string }[]) => files.length > 0 && onOpen([{ kind: 'files', files }], add);
  // Emptied after each pick, so picking the same file again opens it again.
  const picked = (input: HTMLInputElement) => {
    const files = fromInput(input.files);
    input.value = '';
    openFiles(files);
  };
  return (
    <section
      className={`picker${over ? ' over' : ''}`}
      aria-label="Open a receipt log"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        void droppedFiles(e).then(openFiles);
      }}
    >
      <p>
        <strong>Open a receipt log</strong>: drop an evidence-package folder, NDJSON/JSON files, a Chio SQLite store, Claude Code or Codex transcripts (JSONL),
        or ZeroClaw/CodeWhale receipts, transcripts and text logs here, or
      </p>
      <div className="picker-row">
        {/* Real buttons open the (hidden) file inputs: a label is not reachable by keyboard, a button is. */}
        <button type="button" className="button" data-testid="source-files-button" onClick={() => files.current?.click()}>
          choose files
        </button>
        <input ref={files} data-testid="source-input" type="file" multiple hidden tabIndex={-1} onChange={(e) => picked(e.target)} />
        <button type="button" className="button" data-testid="source-folder-button" onClick={() => folder.current?.click()}>
          choose a folder
        </button>
        <input
          ref={(el) => {
            folder.current = el;
            el?.setAttribute('webkitdirectory', '');
          }}
          data-testid="source-folder-input"
          type="file"
          hidden
          tabIndex={-1}
          onChange={(e) => picked(e.target)}
        />
        <button type="button" className="button" disabled={busy} onClick={() => onOpen([{ kind: 'server' }], add)}>
          this server&apos;s log
        </button>
      </div>
      <form
        className="picker-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (url.trim()) onOpen([{ kind: 'url', url: url.trim() }], add);
        }}
      >
        <input
          type="url"
          placeholder="https://…/package/ or …/receipts.ndjson"
          aria-label="URL of a package or file"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <button type="submit" className="button">
          open URL
        </button>
      </form>
      <p className="muted">
        <label>
          <input type="checkbox" data-testid="source-add" checked={add} disabled={!canAdd} onChange={(e) => setAdding(e.target.checked)} /> add to the open log
          (verify everything together as one log) instead of replacing it
        </label>
      </p>
      <p className="muted">Everything is read and verified in this browser; nothing you open is uploaded.</p>
    </section>
  );
}
