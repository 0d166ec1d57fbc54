// Server side only: a small client of ClickHouse's HTTP interface (18.16 speaks it as every later
// version does): statements go as the POST body, results come back as JSONEachRow, and inserts
// stream TabSeparated rows. Only `Sql` fragments (./sql.ts) can be sent, never a string.
// (The official @clickhouse/client supports ClickHouse 22.8 and later only.)
import http from 'node:http';
import https from 'node:https';
import type { Sql } from './sql';

export class ClickHouseError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Settings sent with every request: UInt64 come back as JSON strings, so none loses digits. */
const SETTINGS = { output_format_json_quote_64bit_integers: '1' };

export class ClickHouse {
  readonly url: URL;

  constructor(url: string) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ClickHouseError(`${JSON.stringify(url)} is not a URL (expected e.g. http://127.0.0.1:19121/)`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ClickHouseError(`${url}: only http and https ClickHouse URLs are supported`);
    this.url = parsed;
  }

  private endpoint(settings: Record<string, string> = {}): URL {
    const u = new URL(this.url);
    for (const [k, v] of Object.entries({ ...SETTINGS, ...settings })) u.searchParams.set(k, v);
    return u;
  }

  private async send(body: string, settings?: Record<string, string>): Promise<string> {
    let res: Response;
    try {
      res = await fetch(this.endpoint(settings), { method: 'POST', body, signal: AbortSignal.timeout(120_000) });
    } catch (e) {
      throw new ClickHouseError(
        `ClickHouse at ${this.url.origin} is not reachable (${e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)}); is the fleet up (npm run fleet:up)?`,
      );
    }
    const text = await res.text();
    if (!res.ok) throw new ClickHouseError(`ClickHouse answered ${res.status}: ${text.trim().slice(0, 500)}`, res.status);
    return text;
  }

  /** Runs a statement that returns nothing (DDL). */
  async exec(statement: Sql, settings?: Record<string, string>): Promise<void> {
    await this.send(statement.text, settings);
  }

  /**
   * Runs a SELECT and returns its rows (UInt64 as decimal strings). A read is sent again once when
   * the connection failed before an answer (a kept-alive socket the server had just closed).
   */
  async rows<T = Record<string, string>>(query: Sql, settings?: Record<string, string>): Promise<T[]> {
    const body = `${query.text} FORMAT JSONEachRow`;
    let text: string;
    try {
      text = await this.send(body, settings);
    } catch (e) {
      if (!(e instanceof ClickHouseError) || e.status !== undefined) throw e;
      text = await this.send(body, settings);
    }
    const out: T[] = [];
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      if (end > start) out.push(JSON.parse(text.slice(start, end)) as T);
      start = end + 1;
    }
    return out;
  }

  /**
   * Inserts TabSeparated rows (fields escaped by `tsvField`, without the newline) into `into`
   * (e.g. sql`receipts (a, b)`). Streamed with node:http a thousand rows at a time: fetch wanted
   * the whole body as one buffer, and copied it again (three copies of 26 MB per batch).
   */
  insert(into: Sql, rows: string[], settings?: Record<string, string>): Promise<void> {
    return new Promise((resolve, reject) => {
      const fail = (e: Error) =>
        reject(new ClickHouseError(`ClickHouse at ${this.url.origin} is not reachable (${e.message}); is the fleet up (npm run fleet:up)?`));
      const req = (this.url.protocol === 'https:' ? https : http).request(this.endpoint(settings), { method: 'POST', timeout: 300_000 }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve()
            : reject(new ClickHouseError(`ClickHouse answered ${res.statusCode}: ${text.trim().slice(0, 500)}`, res.statusCode)),
        );
        res.on('error', fail);
      });
      req.on('error', fail);
      req.on('timeout', () => req.destroy(new Error('no answer in 300 s')));
      const write = async () => {
        const drained = () => new Promise<void>((r) => req.once('drain', () => r()));
        if (!req.write(`INSERT INTO ${into.text} FORMAT TabSeparated\n`)) await drained();
        for (let i = 0; i < rows.length; i += 1000) {
          if (!req.write(`${rows.slice(i, i + 1000).join('\n')}\n`)) await drained();
        }
        req.end();
      };
      write().catch((e: Error) => req.destroy(e));
    });
  }
}

/** One TabSeparated field: backslash, tab, newline and carriage return escaped, as ClickHouse reads them. */
const TSV_SPECIAL = /[\\\t\n\r\0]/;

export function tsvField(value: string | bigint | number): string {
  if (typeof value !== 'string') return String(value);
  if (!TSV_SPECIAL.test(value)) return value;
  return value.replace(/[\\\t\n\r\0]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\0'));
}
