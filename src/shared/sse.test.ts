import { expect, test } from "bun:test";
import { parseSseBlock, readSse, type SseEvent } from "./sse";

// The live stream's parser (GET /api/user/events, read by src/client/lib/liveEvents.ts), against
// the SSE spec's parsing rules (WHATWG HTML, "Parsing an event stream").

/** A body sending `chunks` as they are (a string is UTF-8 encoded), then ending. */
function bodyOf(chunks: (string | Uint8Array)[]) {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      c.close();
    },
  });
}

/** The events read from `chunks`, without comment-only blocks (the heartbeats). */
async function eventsOf(chunks: (string | Uint8Array)[]) {
  const events: SseEvent[] = [];
  await readSse(bodyOf(chunks), (event) => events.push(event));
  return events.filter((e) => e.event !== "message" || e.data !== "");
}

const ready = { event: "ready", data: "{}", id: "5" };
const notification = { event: "notification", data: '{"text":"€ gift"}', id: "6" };

test("LF line ends, a chunk cut in a line and in a UTF-8 character, with a heartbeat and retry", async () => {
  const bytes = new TextEncoder().encode('retry: 2000\nevent: ready\nid: 5\ndata: {}\n\n: heartbeat\n\nid: 6\nevent: notification\ndata: {"text":"€ gift"}\n\n');
  const inEuro = bytes.indexOf(0xe2) + 1;
  // The reconnection time rides on the block it came in.
  expect(await eventsOf([bytes.slice(0, 7), bytes.slice(7, inEuro), bytes.slice(inEuro)])).toEqual([{ ...ready, retry: 2000 }, notification]);
});

test("CRLF and CR-only line ends (a proxy may rewrite them) are read as LF", async () => {
  const lf = 'event: ready\nid: 5\ndata: {}\n\n: heartbeat\n\nid: 6\nevent: notification\ndata: {"text":"€ gift"}\n\n';
  expect(await eventsOf([lf.replaceAll("\n", "\r\n")])).toEqual([ready, notification]);
  expect(await eventsOf([lf.replaceAll("\n", "\r")])).toEqual([ready, notification]);
  // Mixed in one stream.
  expect(await eventsOf(["event: ready\r\nid: 5\rdata: {}\n\r\n", 'id: 6\revent: notification\r\ndata: {"text":"€ gift"}\r\r'])).toEqual([ready, notification]);
});

test("a CRLF cut between two chunks is one line end, not a blank line; a CR ending a chunk is a line end", async () => {
  const crlf = 'event: ready\r\nid: 5\r\ndata: {}\r\n\r\nid: 6\r\nevent: notification\r\ndata: {"text":"€ gift"}\r\n\r\n';
  // Cut after every CR: each LF opens the next chunk.
  const cut = crlf.split(/(?<=\r)/);
  expect(await eventsOf(cut)).toEqual([ready, notification]);
  // One byte a chunk.
  expect(await eventsOf([...new TextEncoder().encode(crlf)].map((b) => new Uint8Array([b])))).toEqual([ready, notification]);
  // A CR ending a chunk, then an empty chunk, then the LF.
  expect(await eventsOf(["event: notification\r", new Uint8Array(0), "\ndata: a\r", "\r"])).toEqual([{ event: "notification", data: "a", id: undefined }]);
});

test("several data lines of one event are joined with a newline", async () => {
  expect(await eventsOf(["event: notification\ndata: a\ndata: b\n\n"])).toEqual([{ event: "notification", data: "a\nb", id: undefined }]);
  expect(await eventsOf(["data: a\r\ndata:\r\ndata: c\r\n\r\n"])).toEqual([{ event: "message", data: "a\n\nc", id: undefined }]);
  expect(parseSseBlock("data:first\ndata: second").data).toBe("first\nsecond");
});
