// A wide table of the receipt page (hashes, fields, amounts, the checkpoint) in a box that scrolls
// sideways at a phone's width instead of widening the page. Focusable and named, so the keyboard
// scrolls it too and a screen reader says what it holds.
import type { ReactNode } from 'react';

export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls sideways must take focus so a keyboard can scroll it (WCAG 2.1.1; axe scrollable-region-focusable)
    <div className="table-scroll" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
