'use client';
// One row of /trust: export something this browser keeps as a file, and import
// such a file. An import is attacker-supplied: files over `maxBytes` are
// refused before they are read, and the input is emptied so the same file can
// be picked again. What the text means is the caller's (it says what changed).
import { downloadText } from '../data/download';

export interface TransferRowProps {
  exportLabel: string;
  fileName: string;
  /** The file's text, read when the button is pressed (null disables the button). */
  exportText: (() => string) | null;
  importLabel: string;
  testId: string;
  maxBytes: number;
  onImport: (name: string, text: string) => void;
  onRefused: (message: string) => void;
}

export function TransferRow({ exportLabel, fileName, exportText, importLabel, testId, maxBytes, onImport, onRefused }: TransferRowProps) {
  return (
    <p className="picker-row">
      <button type="button" className="button" onClick={() => exportText && downloadText(fileName, exportText())} disabled={exportText === null}>
        {exportLabel}
      </button>
      <label className="button">
        {importLabel}
        <input
          type="file"
          accept="application/json,.json"
          hidden
          data-testid={testId}
          onChange={async (e) => {
            const input = e.currentTarget;
            const file = input.files?.[0];
            input.value = '';
            if (!file) return;
            if (file.size > maxBytes) return onRefused(`${file.name}: larger than ${maxBytes >> 20} MiB; nothing was imported.`);
            try {
              onImport(file.name, await file.text());
            } catch {
              onRefused(`${file.name} could not be read; nothing was imported.`);
            }
          }}
        />
      </label>
    </p>
  );
}
