'use client';
// Deny rate per tool server: verified calls, denials and their share, worst
// first, with the share drawn as a bar. Clicking a row lists its denials in
// the explorer; the calls count links to all of the server's verified calls.
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import type { ServerRate } from '../../../lib/readers/security';
import { percent } from '../../../lib/readers/security-health';
import { SafeText } from '../../ui/safe-text';

export function DenyRates({ servers }: { servers: ServerRate[] }) {
  const router = useRouter();
  if (servers.length === 0) return <p className="empty">No verified receipt names a tool server with a decision, so there is no rate to show.</p>;
  const worst = Math.max(...servers.map((s) => s.rate));
  return (
    <table className="grid rates" data-testid="deny-rates">
      <thead>
        <tr>
          <th scope="col">tool server</th>
          <th scope="col" className="num">
            verified calls
          </th>
          <th scope="col" className="num">
            denied
          </th>
          <th scope="col" className="rate-col">
            deny rate
          </th>
        </tr>
      </thead>
      <tbody>
        {servers.map((s) => (
          <tr
            key={s.server}
            className="clickable"
            onClick={(e) => (e.target as HTMLElement).closest('a') || router.push(s.href)}
            data-server={s.server}
            data-calls={s.calls}
            data-denied={s.denied}
          >
            <th scope="row">
              <code>
                <SafeText text={s.server} max={60} />
              </code>
            </th>
            <td className="num">
              <Link href={s.callsHref}>{s.calls.toLocaleString('en-US')}</Link>
            </td>
            <td className="num">
              <Link href={s.href} data-testid="deny-rate-link">
                {s.denied.toLocaleString('en-US')}
              </Link>
            </td>
            <td className="rate-col">
              <span className="rate-bar" aria-hidden="true">
                <span style={{ width: `${worst > 0 ? (100 * s.rate) / worst : 0}%` }} />
              </span>
              <span className="rate-text">{percent(s.denied, s.calls)}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
