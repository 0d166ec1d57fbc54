// Seeded PRNG for the demo producer (sfc32, state from SHA-256 of the seed): same seed, same draws; never Math.random.
import { createHash } from 'node:crypto';

export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string, stream = 'main') {
    const h = createHash('sha256').update(`receipt-audit demo prng v1|${stream}|${seed}`).digest();
    this.a = h.readUInt32LE(0);
    this.b = h.readUInt32LE(4);
    this.c = h.readUInt32LE(8);
    this.d = h.readUInt32LE(12) | 1;
    for (let i = 0; i < 16; i++) this.u32();
  }

  /** A uniform unsigned 32-bit integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [min, max], both inclusive (range below 2^32). */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** One item, chosen with probability proportional to its weight. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let x = this.float() * total;
    for (const [item, w] of items) {
      x -= w;
      if (x < 0) return item;
    }
    return items[items.length - 1]![0];
  }

  /** `chars` lowercase hex digits. */
  hex(chars: number): string {
    let out = '';
    while (out.length < chars) out += this.u32().toString(16).padStart(8, '0');
    return out.slice(0, chars);
  }

  /** A UUIDv7-shaped string: 48-bit Unix milliseconds, version 7, RFC 4122 variant, PRNG bits. */
  uuidV7(unixMs: number): string {
    const ms = Math.floor(unixMs).toString(16).padStart(12, '0');
    const variant = (8 + this.int(0, 3)).toString(16);
    return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${this.hex(3)}-${variant}${this.hex(3)}-${this.hex(12)}`;
  }
}
