// The other runtimes' receipt families a log is read with (lib/verdict/family.ts),
// for the callers that compose a verifier: the command line, the page's workers,
// the server's and tests' helpers. In this order: a record two families would
// both claim goes to the first (ZeroClaw's shapes are tried before CodeWhale's).
import type { AuditedFamily } from '../verdict/family';
import { codewhaleFamily } from './codewhale/family';
import { zeroclawFamily } from './zeroclaw/family';

export const DIALECT_FAMILIES: readonly AuditedFamily[] = [zeroclawFamily, codewhaleFamily];
