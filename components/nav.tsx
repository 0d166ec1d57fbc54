// The app's routes.
import Link from 'next/link';

export function Nav({ fleet = false }: { fleet?: boolean }) {
  return (
    <nav className="nav" aria-label="Receipt Audit">
      <Link href="/" className="brand">
        Receipt Audit
      </Link>
      <Link href="/">Overview</Link>
      {fleet && <Link href="/fleet">Fleet</Link>}
      <Link href="/receipts">Receipts</Link>
      <Link href="/dag">DAG</Link>
      <Link href="/finance">Finance</Link>
      <Link href="/compliance">Compliance</Link>
      <Link href="/security">Security</Link>
      <Link href="/trust">Trust</Link>
      <Link href="/selftest">Self-test</Link>
    </nav>
  );
}
