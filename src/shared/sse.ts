/** One Server-Sent Event as read from a stream: its name, data and id, and the reconnection time it set (`retry:`, ms). */
export interface SseEvent {
  event: string;
  data: string;
  id: string | undefined;
  retry?: number;
}

/**
 * Parses one block of a text/event-stream (the lines between two blank lines); comments are
 * skipped. As the SSE spec (WHATWG HTML, "Parsing an event stream") says, a line ends with CRLF,
 * LF or CR, and the values of several `data:` lines are joined with "\n".
 */
export function parseSseBlock(block: string): SseEvent {
  const parsed: SseEvent = { event: "message", data: "", id: undefined };
  const data: string[] = [];
  for (const line of block.split(/\r\n|\r|\n/)) {
    const colon = line.indexOf(":");
    if (colon === 0) continue;
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") parsed.event = value;
    else if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\0")) parsed.id = value;
    else if (field === "retry" && /^[0-9]+$/.test(value)) parsed.retry = Number(value);
  }
  parsed.data = data.join("\n");
  return parsed;
}

/**
 * Reads a text/event-stream body to its end, handing each block to `onBlock` with the raw text
 * (its lines ended with "\n", for those who keep it) and its parse. Read with fetch streaming, so
 * headers such as x-auth-token can go along, which EventSource cannot send.
 *
 * Line ends may be CRLF, LF or CR (a proxy may rewrite them): each is read as LF before the blocks
 * are cut at a blank line. A CR that ends a chunk is a line end already; an LF opening the next
 * chunk is then the rest of that CRLF, not a blank line.
 */
export async function readSse(body: ReadableStream<Uint8Array>, onBlock: (event: SseEvent, block: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let endedWithCr = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    let text = decoder.decode(value, { stream: true });
    if (text === "") continue;
    if (endedWithCr && text.startsWith("\n")) text = text.slice(1);
    endedWithCr = text.endsWith("\r");
    buffer += text.replace(/\r\n?/g, "\n");
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block !== "") onBlock(parseSseBlock(block), block);
    }
  }
}
