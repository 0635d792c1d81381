import { readSse, type SseEvent } from "../../src/shared/sse";
import type { ServerProcess } from "./servers";

/**
 * A client that keeps GET /api/user/events open while the workload runs, as the dashboard does:
 * fetch streaming with x-auth-token; when its server dies it reconnects to a live one with
 * Last-Event-ID. It opens with Last-Event-ID 0 right after signing in, so it should end up with
 * every notification of its member, each once, in id order. The verifier compares what it
 * received with the table (scripts/chaos/verify.ts).
 */
export interface StreamRecord {
  userId: string;
  /** Notification ids in the order received. */
  received: string[];
  connects: number;
  /** Frames that were not what the contract says (unparsable data, id missing or not the item's). */
  malformed: string[];
  /** `reset` events (more missed than the server replays): the notifications after `after` up to `to` may never come. */
  resets: { after: string; to: string }[];
}

export class StreamClient {
  readonly record: StreamRecord;
  private readonly stop = new AbortController();
  private done: Promise<void>;

  constructor(
    private readonly servers: ServerProcess[],
    private readonly token: string,
    userId: string,
  ) {
    this.record = { userId, received: [], connects: 0, malformed: [], resets: [] };
    this.done = this.run();
  }

  /** What the next connection resumes from: the last notification received, or the last reset's id. */
  private cursor = "0";

  get lastId(): string {
    return this.cursor;
  }

  private async run(): Promise<void> {
    while (!this.stop.signal.aborted) {
      const live = this.servers.filter((s) => s.alive);
      const server = live[Math.floor(Math.random() * live.length)];
      if (!server) {
        await Bun.sleep(50);
        continue;
      }
      try {
        const res = await fetch(`${server.url}/api/user/events`, {
          headers: { "x-auth-token": this.token, Accept: "text/event-stream", "Last-Event-ID": this.lastId },
          signal: this.stop.signal,
        });
        if (!res.ok || !res.body) throw new Error(`status ${res.status}`);
        this.record.connects++;
        await readSse(res.body, (event, block) => this.onFrame(event, block));
      } catch {
        if (this.stop.signal.aborted) return;
      }
      await Bun.sleep(100 + Math.random() * 200);
    }
  }

  private onFrame({ event, data, id }: SseEvent, block: string) {
    if (event === "reset" && id) {
      this.record.resets.push({ after: this.cursor, to: id });
      this.cursor = id;
    }
    if (event !== "notification") return;
    try {
      const item = JSON.parse(data) as { _id?: string };
      if (!id || item._id !== id) this.record.malformed.push(block);
    } catch {
      this.record.malformed.push(block);
    }
    if (id) {
      this.record.received.push(id);
      this.cursor = id;
    }
  }

  /** Ends the stream (after the workload) and waits for its loop. */
  async close(): Promise<void> {
    this.stop.abort();
    await this.done;
  }
}
