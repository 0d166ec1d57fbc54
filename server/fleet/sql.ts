// Server side only: the one way SQL text for the fleet's ClickHouse cluster is made (issue 9).
// ClickHouse 18.16 has no server-side query parameters, so every value a request carries is
// written into the SQL as a literal. That happens here and nowhere else:
// - `sql` is a tagged template whose holes accept only `Sql` fragments, checked at run time too,
//   so a plain string (a request's, say) cannot be spliced into a statement by mistake;
// - fragments come from `str` (a quoted, escaped string literal), `u64` (digits of a bigint in
//   0..2^64-1), `col` and `table` (names from fixed whitelists), `list` (a comma-joined list of
//   fragments), and the fixed text of the templates in this folder.
// `str` escapes backslash and quote and writes each ASCII control character as \xHH, so the literal
// holds exactly the request's string and nothing can end it early; strings that are not
// well-formed Unicode are refused (their UTF-8 would not be the string that was asked for).

const BRAND: unique symbol = Symbol('sql');

export class Sql {
  readonly [BRAND] = true;
  private constructor(readonly text: string) {}
  /** @internal: only this module makes fragments. */
  static of(text: string): Sql {
    return new Sql(text);
  }
  toString(): string {
    return this.text;
  }
}

export class SqlValueError extends Error {}

export function sql(strings: TemplateStringsArray, ...values: Sql[]): Sql {
  if (!Array.isArray(strings.raw)) throw new SqlValueError('sql`…` must be used as a tagged template');
  let text = strings[0]!;
  values.forEach((v, i) => {
    if (!(v instanceof Sql))
      throw new SqlValueError(`sql\`…\` hole ${i} is a ${typeof v}, not a fragment: values must go through str(), u64(), col() or list()`);
    text += v.text + strings[i + 1]!;
  });
  return Sql.of(text);
}

export const U64_MAX = (1n << 64n) - 1n;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A ClickHouse string literal holding exactly `value`. */
export function str(value: string): Sql {
  if (typeof value !== 'string') throw new SqlValueError(`str() takes a string, not a ${typeof value}`);
  if (LONE_SURROGATE.test(value)) throw new SqlValueError('the string is not well-formed Unicode (a lone surrogate)');
  let out = "'";
  for (const ch of value) {
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (ch < ' ' || ch === '\x7f') out += `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return Sql.of(`${out}'`);
}

/** A UInt64 literal. */
export function u64(value: bigint): Sql {
  if (typeof value !== 'bigint' || value < 0n || value > U64_MAX) throw new SqlValueError(`u64() takes a bigint in 0..2^64-1, not ${String(value)}`);
  return Sql.of(value.toString());
}

/** Fragments joined by `sep` (default a comma). */
export function list(items: readonly Sql[], sep: ', ' | ' AND ' | ' OR ' = ', '): Sql {
  for (const item of items) if (!(item instanceof Sql)) throw new SqlValueError('list() takes fragments only');
  return Sql.of(items.map((i) => i.text).join(sep));
}

export const TABLES = [
  'receipts',
  'receipts_local',
  'receipt_json',
  'receipt_json_local',
  'checkpoints',
  'checkpoints_local',
  'proofs',
  'proofs_local',
  'records',
  'records_local',
] as const;
export type Table = (typeof TABLES)[number];

/** A table of the fleet schema. */
export function table(name: Table): Sql {
  if (!(TABLES as readonly string[]).includes(name)) throw new SqlValueError(`unknown table ${JSON.stringify(name)}`);
  return Sql.of(name);
}

export const COLUMNS = [
  'fleet_seq',
  'kernel_key',
  'kind',
  'seq',
  'receipt_id',
  'signer_key',
  'timestamp',
  'capability_id',
  'subject_key',
  'tool_server',
  'tool_name',
  'decision_kind',
  'cost_digits',
  'currency',
  'checkpoint_seq',
  'source',
  'raw_json',
  'batch_start_seq',
  'batch_end_seq',
  'tree_size',
  'issued_at',
  'raw',
  'record_kind',
  'record_key',
] as const;
export type Column = (typeof COLUMNS)[number];

/** A column of the fleet schema. */
export function col(name: Column): Sql {
  if (!(COLUMNS as readonly string[]).includes(name)) throw new SqlValueError(`unknown column ${JSON.stringify(name)}`);
  return Sql.of(name);
}
