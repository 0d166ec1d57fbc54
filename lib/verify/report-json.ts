// Serializes a report as JSON with BigInt amounts and sequence numbers printed
// as exact integers (JSON.stringify cannot print BigInt, and Number would round
// values above 2^53).
export function reportToJson(value: unknown, indent = 2): string {
  const out: string[] = [];
  write(value, out, indent, '');
  return out.join('');
}

function write(v: unknown, out: string[], indent: number, pad: string): void {
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
