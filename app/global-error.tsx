'use client';
import { type BoundaryProps, RouteError } from '../components/ui/route-error';
import './globals.css';

// What the app shows when its root layout (the navigation, the log bar, the log provider) fails:
// it replaces that layout, so it has its own document and styles, and its way home reloads.
export default function GlobalError(props: BoundaryProps) {
  return (
    <html lang="en">
      <body>
        <title>Receipt Audit could not be shown</title>
        <RouteError page="Receipt Audit" home="reload" {...props} />
      </body>
    </html>
  );
}
