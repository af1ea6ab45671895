/**
 * A map that keeps at most `maxBytes` (as `sizeOf` counts them), least recently used out first.
 * A value that alone would take more than an eighth of the space is not kept.
 */
export class ByteCappedCache<V> {
  private readonly entries = new Map<string, V>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  /** The value, which becomes the most recently used. */
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // Most recently used last: the oldest go first when space runs out.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Keeps the value; false when it is too large to keep. */
  set(key: string, value: V): boolean {
    if (this.sizeOf(value) > this.maxBytes / 8) return false;
    this.delete(key);
    this.entries.set(key, value);
    this.grew(this.sizeOf(value));
    return true;
  }

  delete(key: string): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.bytes -= this.sizeOf(value);
  }

  /** A kept value took `bytes` more (something made from it and kept on it). */
  grew(bytes: number): void {
    this.bytes += bytes;
    for (const [key, value] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= this.sizeOf(value);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
