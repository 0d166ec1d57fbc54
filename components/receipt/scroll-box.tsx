// A wide table of the receipt page (hashes, fields, amounts, the checkpoint) in a box that scrolls
// sideways at a phone's width instead of widening the page. Focusable and named, so the keyboard
// scrolls it too and a screen reader says what it holds.
import type { ReactNode } from 'react';

export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
