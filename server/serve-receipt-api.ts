// Server side only: serves the /v1 API (handleApiRequest) from node:http on 127.0.0.1 without
// Next, reading RECEIPT_DB and RECEIPT_API_TOKEN from the environment. Used by the API tests,
// which run it as a child process so SQLite is configured as in a real server process (URI
// filenames on before the addon loads), and handy by hand:
//
//   RECEIPT_DB=path/to/receipts.sqlite3 node --import tsx server/serve-receipt-api.ts
//
// Prints `listening <origin>` on stdout; stops on SIGTERM/SIGINT, and with --exit-with-stdin
// also when stdin closes (so a test's servers never outlive it).
import { handleApiRequest } from './api-router';
import { closeAllStores } from './store/receipt-query';
import { serveOnLoopback } from './serve-node';

const server = await serveOnLoopback((request) => handleApiRequest(request, process.env));
process.stdout.write(`listening ${server.origin}\n`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close();
  closeAllStores();
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
if (process.argv.includes('--exit-with-stdin')) {
  process.stdin.on('end', () => void stop());
  process.stdin.resume();
}
