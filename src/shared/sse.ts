/** One Server-Sent Event as read from a stream: its name, data and id. */
export interface SseEvent {
  event: string;
  data: string;
  id: string | undefined;
}

/** Parses one block of a text/event-stream (the lines between two blank lines); comments are skipped. */
export function parseSseBlock(block: string): SseEvent {
  const parsed: SseEvent = { event: "message", data: "", id: undefined };
  for (const line of block.split("\n")) {
    const colon = line.indexOf(":");
    if (colon === 0) continue;
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") parsed.event = value;
    else if (field === "data") parsed.data += value;
    else if (field === "id") parsed.id = value;
  }
  return parsed;
}

/**
 * Reads a text/event-stream body to its end, handing each block to `onBlock` with the raw text
 * (for those who keep it) and its parse. Read with fetch streaming, so headers such as
 * x-auth-token can go along, which EventSource cannot send.
 */
export async function readSse(body: ReadableStream<Uint8Array>, onBlock: (event: SseEvent, block: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      onBlock(parseSseBlock(block), block);
    }
  }
}
