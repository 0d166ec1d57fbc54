// What a page that failed to render may say about the error (components/ui/route-error.tsx). A
// thrown value can be anything: an Error, a string, an object (whose text is "[object Object]"),
// or the server's redacted error with only a digest. Only a message's first line is ever shown,
// never a stack; a server error shows its digest (to match the server's log), not its message.

export interface ErrorText {
  /** The error's own message, one line (null when it has none worth showing). */
  message: string | null;
  /** The server's reference for an error thrown while rendering there (null for one in this browser). */
  digest: string | null;
}

const OPAQUE = /\[object [A-Za-z]*\]/;
const DIGEST = /^[\w-]{1,64}$/;

function field(error: unknown, name: 'message' | 'digest'): unknown {
  return typeof error === 'object' && error !== null && name in error ? (error as Record<string, unknown>)[name] : undefined;
}

export function errorText(error: unknown): ErrorText {
  const digest = field(error, 'digest');
  if (typeof digest === 'string' && DIGEST.test(digest)) return { message: null, digest };
  const raw = typeof error === 'string' ? error : field(error, 'message');
  if (typeof raw !== 'string') return { message: null, digest: null };
  const line = (raw.split(/\r?\n/, 1)[0] ?? '').trim();
  return { message: line === '' || OPAQUE.test(line) ? null : line, digest: null };
}
