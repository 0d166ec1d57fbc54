'use client';

/** Saves `text` as a file named `name` through the browser's download. */
export function downloadText(name: string, text: string | string[], type = 'application/json'): void {
  // Pieces (string[]) for texts longer than one string can be, e.g. a million receipts' report.
  const url = URL.createObjectURL(new Blob(typeof text === 'string' ? [text] : text, { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
