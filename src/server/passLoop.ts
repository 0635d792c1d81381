/**
 * A background job made of passes (the chain watcher, the mailer): one pass at a time, the next
 * `periodMs` after one ends, or at once when asked meanwhile. Its state lives in the database, so
 * a pass that throws is answered by `failed` (which logs it) and the next one runs on time.
 */
export interface PassLoop<R> {
  /** A pass soon: now when idle, right after the one in flight otherwise. */
  soon(): void;
  /** Called by a pass that left work undone: the next one follows it at once. */
  again(): void;
  /** Waits for a pass in flight, then runs one of its own: it sees everything committed before. */
  runOnce(): Promise<R>;
  /** Stops, after the pass in flight. */
  stop(): Promise<void>;
}

/** `firstMs`: when the first pass runs, from the start (at once by default). */
export function startPassLoop<R>(pass: () => Promise<R>, options: { periodMs: number; failed: (error: unknown) => R; poll?: boolean; firstMs?: number }): PassLoop<R> {
  const { periodMs, failed, poll = true, firstMs = 0 } = options;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<R> | undefined;
  let again = false;
  let stopped = false;

  function schedule(ms: number) {
    clearTimeout(timer);
    if (!stopped && poll) timer = setTimeout(run, ms);
  }

  function run(): Promise<R> {
    if (running) {
      again = true;
      return running;
    }
    const current = pass()
      .catch(failed)
      .finally(() => {
        running = undefined;
        schedule(again ? 0 : periodMs);
        again = false;
      });
    running = current;
    return current;
  }

  schedule(firstMs);
  return {
    soon: () => {
      if (running) again = true;
      else schedule(0);
    },
    again: () => {
      again = true;
    },
    runOnce: async () => {
      if (running) await running;
      return run();
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      if (running) await running;
    },
  };
}
