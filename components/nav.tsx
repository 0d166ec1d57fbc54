'use client';
// The app's routes. One row of links on a wide screen; on a phone the links wrap under the
// brand (app/globals.css), so every page stays one tap away with no menu to open, nothing
// hidden from a screen reader and nothing that waits for scripts. The current page is marked.
import Link from 'next/link';
import { usePathname } from 'next/navigation';

const LINKS: { href: string; label: string; fleet?: boolean }[] = [
  { href: '/', label: 'Overview' },
  { href: '/fleet', label: 'Fleet', fleet: true },
  { href: '/receipts', label: 'Receipts' },
  { href: '/dag', label: 'DAG' },
  { href: '/finance', label: 'Finance' },
  { href: '/compliance', label: 'Compliance' },
  { href: '/security', label: 'Security' },
  { href: '/trust', label: 'Trust' },
  { href: '/selftest', label: 'Self-test' },
];

/** `/receipts/<id>` is under Receipts; `/` is only the overview. */
const isCurrent = (href: string, path: string) => (href === '/' ? path === '/' : path === href || path.startsWith(`${href}/`));

export function Nav({ fleet = false }: { fleet?: boolean }) {
  const path = usePathname() ?? '';
  return (
    <nav className="nav" aria-label="Receipt Audit">
      <Link href="/" className="brand">
        Receipt Audit
      </Link>
      <ul className="nav-links">
        {LINKS.filter((l) => fleet || !l.fleet).map((l) => (
          <li key={l.href}>
            <Link href={l.href} aria-current={isCurrent(l.href, path) ? 'page' : undefined}>
              {l.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
