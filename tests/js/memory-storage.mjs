// localStorage stand-ins for the Node tests: an in-memory store that can be switched to refuse
// every write (`full`), and one with a quota in characters that refuses as browsers do.

/** MemoryStorage: the Storage interface over a Map; `full = true` makes every write throw. */
export class MemoryStorage {
  constructor() { this.items = new Map(); this.full = false; }
  get length() { return this.items.size; }
  key(i) { return [...this.items.keys()][i] ?? null; }
  getItem(key) { return this.items.has(key) ? this.items.get(key) : null; }
  setItem(key, value) {
    if (this.full) throw new Error('QuotaExceededError');
    this.items.set(key, String(value));
  }
  removeItem(key) { this.items.delete(key); }
}

/** QuotaStorage(quota): a storage with a quota in characters (keys and values). */
export class QuotaStorage extends MemoryStorage {
  constructor(quota) { super(); this.quota = quota; }
  used() { return [...this.items].reduce((n, [k, v]) => n + k.length + v.length, 0); }
  setItem(key, value) {
    const text = String(value);
    const old = this.items.has(key) ? key.length + this.items.get(key).length : 0;
    if (this.used() - old + key.length + text.length > this.quota) {
      const err = new Error('The quota has been exceeded.');
      err.name = 'QuotaExceededError';
      throw err;
    }
    this.items.set(key, text);
  }
}
