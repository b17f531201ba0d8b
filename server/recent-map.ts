// A map that keeps only its most recently used entries, for the per-process memories that must not grow
// without end (prepared statements, what the document lists remember). Reading an entry counts as using
// it. Once the limit is passed the least recently used go, down to nine tenths of the limit: reading, which
// every request does several times, then only stamps the entry, and a full map sorts its entries once per
// tenth of its limit of new ones instead of moving an entry at every read.
export class RecentMap<K, V> {
  private readonly limit: number;
  private readonly entries = new Map<K, { value: V; used: number }>();
  private uses = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.uses += 1;
    entry.used = this.uses;
    return entry.value;
  }

  set(key: K, value: V): void {
    this.uses += 1;
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      entry.value = value;
      entry.used = this.uses;
      return;
    }
    this.entries.set(key, { value, used: this.uses });
    if (this.entries.size > this.limit) this.forgetLeastUsed();
  }

  keys(): IterableIterator<K> {
    return this.entries.keys();
  }

  private forgetLeastUsed(): void {
    const keep = Math.floor(this.limit * 0.9);
    const byUse = [...this.entries].sort(([, a], [, b]) => a.used - b.used);
    for (const [key] of byUse.slice(0, this.entries.size - keep)) this.entries.delete(key);
  }
}
