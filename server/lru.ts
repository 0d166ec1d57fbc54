// Server side only: the one bounded cache of the server. It keeps at most `max` entries and drops
// the least recently used first (a Map keeps insertion order: a use moves the key to the end).
// Used for the store's open handles and their prepared statements (store/store-handle.ts), the
// store's filter-set plans (store/receipt-query.ts) and the fleet's (fleet/query.ts).
export class Lru<K, V> {
  private readonly entries = new Map<K, V>();

  /** `evicted` is called with each entry dropped to make room (not with those deleted or cleared). */
  constructor(
    readonly max: number,
    private readonly evicted?: (value: V, key: K) => void,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value, marked as just used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** The value, left where it is in the order. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Stores `value` as the most recently used, first dropping the least recently used when full. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    const oldest = this.entries.entries().next();
    if (this.entries.size >= this.max && !oldest.done) {
      const [oldKey, oldValue] = oldest.value;
      this.entries.delete(oldKey);
      this.evicted?.(oldValue, oldKey);
    }
    this.entries.set(key, value);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  values(): V[] {
    return [...this.entries.values()];
  }
}
