// Web Worker entry: reads one file for the log worker (see read-file.ts), so
// that a large file's bytes never pass through the thread holding the log.
import { type ReadPort, type ReadRequest, type ReadResponse, serveRead } from './read-file';

serveRead(self as unknown as ReadPort<ReadResponse, ReadRequest>);
