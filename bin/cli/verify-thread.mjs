// Entry of a verify worker thread: TypeScript is loaded through tsx, as
// bin/receipt-audit.mjs does for the main thread (a thread does not inherit it).
import { register } from 'tsx/esm/api';

register();
await import('./verify-thread.ts');
