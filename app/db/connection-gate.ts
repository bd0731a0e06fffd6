/**
 * Who may use a process's one SQLite connection right now. Prisma's adapter and
 * the prepared statements of app/db/sql share that connection, and a transaction
 * on it spans awaits: a statement of anyone else sent meanwhile would run inside
 * that transaction. Whoever opens a transaction holds the gate until it ends; a
 * lone statement holds it for its own run. First come, first served.
 */
export class ConnectionGate {
  #held = false;
  readonly #waiting: (() => void)[] = [];

  /** Takes the gate now if it is free (no wait, no microtask). */
  tryAcquire(): boolean {
    if (this.#held) return false;
    this.#held = true;
    return true;
  }

  acquire(): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    return new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** Hands the gate to the next in line, or frees it. */
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }

  async hold<T>(work: () => Promise<T>): Promise<T> {
    if (!this.tryAcquire()) await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }
}
