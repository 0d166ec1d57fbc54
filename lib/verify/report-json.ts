// Serializes a report as JSON with BigInt amounts and sequence numbers printed
// as exact integers (JSON.stringify cannot print BigInt, and Number would round
// values above 2^53).
export function reportToJson(value: unknown, indent = 2): string {
  return reportJsonParts(value, indent).join('');
}

/**
 * The same text in pieces of about `partChars` characters. A million
 * receipts' report is longer than the longest string an engine can hold
 * (V8: 2^29 characters); its pieces can still be written out or put in a Blob.
 */
export function reportJsonParts(value: unknown, indent = 2, partChars = 1 << 20): string[] {
  const parts: string[] = [];
  const out = new Pieces((piece) => parts.push(piece), partChars);
  write(value, out, indent, '');
  out.flush();
  return parts;
}

/** Collects small strings and hands them on joined, about `size` characters at a time. */
class Pieces {
  private buf: string[] = [];
  private chars = 0;
  constructor(
    private readonly emit: (piece: string) => void,
    private readonly size: number,
  ) {}

  push(...xs: string[]): void {
    for (const x of xs) {
      this.buf.push(x);
      this.chars += x.length;
    }
    if (this.chars >= this.size) this.flush();
  }

  flush(): void {
    if (this.buf.length) this.emit(this.buf.join(''));
    this.buf = [];
    this.chars = 0;
  }
}

function write(v: unknown, out: Pieces, indent: number, pad: string): void {
  if (typeof v === 'bigint') {
    out.push(v.toString());
    return;
  }
  if (v === null || typeof v !== 'object') {
    out.push(v === undefined ? 'null' : JSON.stringify(v));
    return;
  }
  const inner = pad + ' '.repeat(indent);
  const nl = indent > 0 ? '\n' : '';
  const sep = indent > 0 ? ': ' : ':';
  if (Array.isArray(v)) {
    if (v.length === 0) {
      out.push('[]');
      return;
    }
    out.push('[', nl);
    v.forEach((item, i) => {
      out.push(inner);
      write(item, out, indent, inner);
      out.push(i < v.length - 1 ? ',' : '', nl);
    });
    out.push(pad, ']');
    return;
  }
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
  if (entries.length === 0) {
    out.push('{}');
    return;
  }
  out.push('{', nl);
  entries.forEach(([k, x], i) => {
    out.push(inner, JSON.stringify(k), sep);
    write(x, out, indent, inner);
    out.push(i < entries.length - 1 ? ',' : '', nl);
  });
  out.push(pad, '}');
}
