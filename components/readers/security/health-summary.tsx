'use client';
// The security health summary: one plain sentence per topic with a traffic
// light, worst first, and a headline that counts them (never a lone green
// tick). Sentence parts are text or links, rendered as text nodes only.
import Link from 'next/link';
import type { HealthLine, HealthPart, HealthStatus } from '../../../lib/readers/security-health';
import { SafeText } from '../../ui/safe-text';

const RANK: Record<HealthStatus, number> = { bad: 0, warn: 1, good: 2 };
const WORD: Record<HealthStatus, string> = { bad: 'Problem', warn: 'Look', good: 'OK' };

export function HealthSummary({ lines }: { lines: HealthLine[] }) {
  const sorted = [...lines].sort((a, b) => RANK[a.status] - RANK[b.status]);
  const bad = lines.filter((l) => l.status === 'bad').length;
  const warn = lines.filter((l) => l.status === 'warn').length;
  const worst: HealthStatus = bad ? 'bad' : warn ? 'warn' : 'good';
  const headline = [bad && `${bad} ${bad === 1 ? 'problem' : 'problems'}`, warn && `${warn} ${warn === 1 ? 'thing' : 'things'} to look at`]
    .filter(Boolean)
    .join(' and ');
  return (
    <section className={`health ${worst}`} aria-labelledby="health-title" data-testid="health-summary" data-bad={bad} data-warn={warn}>
      <h2 id="health-title">{headline ? `At a glance: ${headline}` : 'At a glance: nothing needs attention'}</h2>
      <ul className="health-lines">
        {sorted.map((l) => (
          <li key={l.topic} className={l.status} data-testid="health-line" data-topic={l.topic} data-status={l.status}>
            <span className={`light ${l.status}`} aria-hidden="true" />
            <span className="health-word">{WORD[l.status]}</span>
            <span>
              {l.parts.map((p, i) => (
                <Part key={i} part={p} />
              ))}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Part({ part }: { part: HealthPart }) {
  if (typeof part === 'string') return <SafeText text={part} max={300} />;
  if (part.href.startsWith('#'))
    return (
      <a href={part.href} className="num-link">
        <SafeText text={part.text} max={80} expandable={false} />
      </a>
    );
  return (
    <Link href={part.href} className="num-link">
      <SafeText text={part.text} max={80} expandable={false} />
    </Link>
  );
}
