import type { Subprocess } from "bun";

/** A server process we can SIGKILL and bring back on the same port. */
export class ServerProcess {
  private proc: Subprocess | undefined;
  /** The end of what the process wrote on stderr, read as it comes: a full pipe would block its writes. */
  private stderrTail = "";
  alive = false;
  restarts = 0;

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.proc = Bun.spawn(["bun", "src/server/index.ts"], {
      // WORKERS=1 unless `env` says otherwise (chaos --workers): with workers, `kill` takes the
      // supervisor's workers down with it (src/server/cluster.ts).
      env: { ...process.env, WORKERS: "1", ...this.env, PORT: String(this.port) },
      stdout: "ignore",
      stderr: process.env.CHAOS_SERVER_STDERR ? "inherit" : "pipe",
    });
    this.stderrTail = "";
    void this.drain(this.proc.stderr);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      try {
        const res = await fetch(`${this.url}/api/programs/3p/levels`);
        if (res.ok) {
          this.alive = true;
          return;
        }
      } catch {}
      if (this.proc.exitCode !== null) break;
      await Bun.sleep(100);
    }
    this.proc.kill("SIGKILL");
    await this.proc.exited;
    throw new Error(`server on port ${this.port} did not start: ${this.stderrTail}`);
  }

  private async drain(stream: unknown): Promise<void> {
    if (!(stream instanceof ReadableStream)) return;
    const decoder = new TextDecoder();
    for await (const chunk of stream as ReadableStream<Uint8Array>) this.stderrTail = (this.stderrTail + decoder.decode(chunk, { stream: true })).slice(-2000);
  }

  /** SIGKILL, the workers first when there are: no shutdown hooks, open transactions die with the connection. */
  async kill(): Promise<void> {
    this.alive = false;
    if (this.proc) Bun.spawnSync(["pkill", "-KILL", "-P", String(this.proc.pid)]);
    this.proc?.kill("SIGKILL");
    await this.proc?.exited;
  }

  async stop(): Promise<void> {
    this.alive = false;
    this.proc?.kill("SIGTERM");
    await this.proc?.exited;
  }
}
