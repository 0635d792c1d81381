/**
 * Preloaded into the server process the browser tests start (`bun --preload`). It changes
 * where the server listens and when it ends, nothing else:
 * - The server has no host setting and Bun.serve listens on every interface by default; the
 *   test server is pinned to the loopback interface.
 * - If the test runner dies without stopping it (killed, crashed), the server would live on as
 *   an orphan holding its port and temporary folder; it exits as soon as its parent is gone.
 */
type Serve = typeof Bun.serve;
const serve: Serve = Bun.serve.bind(Bun);
(Bun as { serve: Serve }).serve = ((options: Parameters<Serve>[0]) => serve({ ...options, hostname: "127.0.0.1" } as Parameters<Serve>[0])) as Serve;

const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) process.exit(0);
}, 1000).unref();
export {};
