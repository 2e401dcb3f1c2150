/** How a read ended: `'wait'` ends the run until the next request. */
export type ReadOutcome = 'done' | 'wait';

/**
 * Runs `read` one call at a time. `request()` asks for a read: the requests made during a read
 * make one more read after it, not one each (a rollout pushes a fleet change every 100 ms, and a
 * read can take seconds). A read that answers `'wait'` ends the run until the next request: a
 * failed read is tried again with the next push, not in a loop. After `stop()` no read starts.
 * `read` handles its own errors.
 */
export class ReadRunner {
  readonly #read: () => Promise<ReadOutcome>;
  #reading = false;
  #again = false;
  #stopped = false;

  constructor(read: () => Promise<ReadOutcome>) {
    this.#read = read;
  }

  /** Whether `stop()` was called: an answer that comes after it is dropped. */
  get stopped(): boolean {
    return this.#stopped;
  }

  request(): void {
    if (this.#stopped) return;
    if (this.#reading) {
      this.#again = true;
      return;
    }
    void this.#run();
  }

  stop(): void {
    this.#stopped = true;
  }

  async #run(): Promise<void> {
    this.#reading = true;
    try {
      do {
        this.#again = false;
        if ((await this.#read()) === 'wait') return;
      } while (this.#again && !this.#stopped);
    } finally {
      this.#reading = false;
    }
  }
}
