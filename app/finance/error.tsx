'use client';
import { type BoundaryProps, RouteError } from '../../components/ui/route-error';

// What this route shows when it fails to render (components/ui/route-error.tsx).
export default function FinanceError(props: BoundaryProps) {
  return <RouteError page="The finance view" {...props} />;
}
