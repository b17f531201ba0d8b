// A map that keeps only its most recently used entries, for the per-process memories that must not grow
// without end (prepared statements, what the document lists remember). Reading an entry counts as using
// it; the least recently used goes first once the limit is passed.
export class RecentMap<K, V> {
  private readonly limit: number;
  private readonly entries = new Map<K, V>();

  constructor(limit: number) {
    this.limit = limit;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }

  keys(): IterableIterator<K> {
    return this.entries.keys();
  }
}
