/**
 * Collects the keys asked for within one tick and loads them with one call: a list of members
 * asking for one field each costs one query, not one per member. Create one per request.
 */
export class BatchLoader<K, V> {
  private pending = new Map<K, Array<(value: V) => void>>();
  private failures: Array<(error: unknown) => void> = [];

  constructor(
    private readonly loadMany: (keys: K[]) => Promise<Map<K, V>>,
    private readonly fallback: V,
  ) {}

  load(key: K): Promise<V> {
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) process.nextTick(() => void this.flush());
      this.pending.set(key, [...(this.pending.get(key) ?? []), resolve]);
      this.failures.push(reject);
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    const failures = this.failures;
    this.pending = new Map();
    this.failures = [];
    try {
      const values = await this.loadMany([...batch.keys()]);
      for (const [key, waiters] of batch) waiters.forEach((resolve) => resolve(values.get(key) ?? this.fallback));
    } catch (error) {
      failures.forEach((reject) => reject(error));
    }
  }
}
