// A size-bounded least-recently-used map for per-key crypto state (decoded
// keys, imported CryptoKeys). A log has few signing keys, but the keys come
// from attacker-controlled input, so no cache may grow without bound.

export class BoundedCache<K, V> {
  private readonly map = new Map<K, V>();
  private readonly maxEntries: number;

  constructor(maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be a positive integer');
    this.maxEntries = maxEntries;
  }

  /** The cached value, marking it most recently used. */
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  /** Stores `value`, evicting the least recently used entry when full. */
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.maxEntries) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  get size(): number {
    return this.map.size;
  }
}

/**
 * The promise cached under `key`, else `load()`'s, cached so concurrent first
 * uses share one load. A rejected load is forgotten (unless already replaced),
 * so the next use retries.
 */
export function cachedLoad<K, V>(cache: BoundedCache<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> {
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const loading = load();
  cache.set(key, loading);
  loading.catch(() => {
    if (cache.get(key) === loading) cache.delete(key);
  });
  return loading;
}
