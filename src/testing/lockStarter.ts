import { lockDataDir } from "../db/dataDirLock";

/**
 * A starter for src/db/dataDirLock.test.ts: told `{take: dir, at}` over IPC, it tries the
 * data-folder lock at the wall-clock moment `at` (ms, waited for by spinning, so that two starters
 * go within microseconds of each other, as two servers started at once would) and answers whether
 * it holds it; `{release: true}` lets it go.
 */
let held: { release(): void } | undefined;
process.on("message", (message: { take?: string; at?: number; release?: boolean }) => {
  if (message.take !== undefined) {
    while (performance.timeOrigin + performance.now() < (message.at ?? 0)) {}
    try {
      held = lockDataDir(message.take);
      process.send?.({ held: true });
    } catch (error) {
      process.send?.({ held: false, error: (error as Error).name });
    }
  } else if (message.release) {
    held?.release();
    held = undefined;
    process.send?.({ released: true });
  }
});
process.send?.({ ready: true });
