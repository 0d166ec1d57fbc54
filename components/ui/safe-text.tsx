'use client';
// Attacker-controlled text (anything read from a receipt, checkpoint, log,
// file name or trust file), shown so that it cannot pass for something else:
// React renders it as text (never HTML); lib/text/reveal marks bidi controls,
// zero-width and control characters (shown as a boxed code point INSTEAD of
// the character, so an override has nothing to apply), lookalike letters
// (shown with their code point) and zalgo stacks; the whole is a direction
// isolate (<bdi>) so right-to-left text cannot reorder the page around it;
// and a long string is clipped with "show all" instead of breaking the layout.
import { Fragment, useMemo, useState } from 'react';
import { clipText, codePointLabel, markerLabel, revealText, type RevealSegment } from '../../lib/text/reveal';

type Marked = Exclude<RevealSegment, { kind: 'text' }>;

const WHY: Record<Marked['kind'], string> = {
  bidi: 'a direction control: it would reorder the text around it, so it is shown here instead of applied',
  invisible: 'an invisible character: two strings that look the same can differ by it',
  control: 'a control character, shown here instead of applied',
  lookalike: 'a lookalike letter: the text reads the same as other text but is different',
  combining: 'a stack of combining marks drawn over one letter (not drawn here)',
};

function titleOf(seg: Marked): string {
  const what =
    seg.kind === 'combining'
      ? `${seg.count} combining marks from ${codePointLabel(seg.codePoint)}`
      : `${codePointLabel(seg.codePoint)} ${seg.name}${seg.count > 1 ? `, ${seg.count} times` : ''}`;
  return `${what}: ${WHY[seg.kind]}.`;
}

function Mark({ seg }: { seg: Marked }) {
  const badge = (
    <span className={`reveal-mark reveal-${seg.kind}`} title={titleOf(seg)} data-testid="reveal-mark" data-kind={seg.kind}>
      {markerLabel(seg)}
    </span>
  );
  if (seg.kind !== 'lookalike') return badge;
  return (
    <span className="reveal-lookalike">
      {seg.text}
      {badge}
    </span>
  );
}

export interface SafeTextProps {
  text: string;
  /** Code points shown before "show all" (the rest is counted). */
  max?: number;
  /** False inside a link or button, where a nested button cannot go: the count is shown without the control. */
  expandable?: boolean;
  /** Line feeds and tabs are layout (pretty JSON in a <pre>), not marked. */
  multiline?: boolean;
  className?: string;
}

export function SafeText({ text, max = 160, expandable = true, multiline = false, className }: SafeTextProps) {
  const [all, setAll] = useState(false);
  const { shown, hidden } = all ? { shown: text, hidden: 0 } : clipText(text, max);
  const segs = useMemo(() => revealText(shown, { multiline }), [shown, multiline]);
  return (
    <bdi className={className ? `safe-text ${className}` : 'safe-text'} data-safe-text="">
      {segs.map((seg, i) => (seg.kind === 'text' ? <Fragment key={i}>{seg.text}</Fragment> : <Mark key={i} seg={seg} />))}
      {hidden > 0 && (
        <span className="clip-note" data-testid="clipped" data-hidden={hidden}>
          {'… '}({hidden.toLocaleString('en-US')} more characters)
          {expandable && (
            <>
              {' '}
              <button type="button" className="link-button" data-testid="show-all" onClick={() => setAll(true)}>
                show all
              </button>
            </>
          )}
        </span>
      )}
    </bdi>
  );
}
