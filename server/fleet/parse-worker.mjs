// The entry of an ingest parse worker: registers tsx in this thread (hooks registered in the main
// thread do not reach workers), then loads the worker itself, ./parse-worker.ts.
import { register } from 'tsx/esm/api';

register();
await import('./parse-worker.ts');
