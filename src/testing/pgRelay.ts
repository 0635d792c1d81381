/**
 * A TCP relay in front of Postgres, for tests that watch or change what goes over the wire.
 *
 * Both streams are cut into protocol messages (a type byte and a length each; the client's
 * start-up message has no type byte and is passed on as it is). Each message the client sends
 * goes through `message`, which may answer another message to send in its place; then `write`
 * hears the types of the messages of that one write of the client's. Each message the server
 * sends is shown to `answer` by its type.
 */
export function pgRelay(
  target: { host: string; port: number },
  hooks: {
    message?: (type: string, message: Buffer) => Buffer | undefined;
    write?: (types: string[]) => void;
    answer?: (type: string) => void;
  },
) {
  type Stream = { buffered: Buffer; started: boolean };
  /** The complete messages in what has come so far (the rest is kept for the next chunk). */
  const cut = (stream: Stream, chunk: Uint8Array): { type: string; message: Buffer }[] => {
    stream.buffered = Buffer.concat([stream.buffered, chunk]);
    const messages: { type: string; message: Buffer }[] = [];
    for (;;) {
      const header = stream.started ? 1 : 0;
      if (stream.buffered.length < header + 4) break;
      const length = stream.buffered.readInt32BE(header);
      if (stream.buffered.length < header + length) break;
      const message = Buffer.from(stream.buffered.subarray(0, header + length));
      messages.push({ type: stream.started ? String.fromCharCode(message[0]!) : "", message });
      stream.buffered = stream.buffered.subarray(header + length);
      stream.started = true;
    }
    return messages;
  };
  type Side = Stream & { upstream?: import("bun").Socket<undefined>; pending: Buffer[] };
  const server = Bun.listen<Side>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      async open(socket) {
        socket.data = { buffered: Buffer.alloc(0), started: false, pending: [] };
        const answers: Stream = { buffered: Buffer.alloc(0), started: true };
        const upstream = await Bun.connect({
          hostname: target.host,
          port: target.port,
          socket: {
            data: (_up, chunk) => {
              for (const { type } of cut(answers, chunk)) hooks.answer?.(type);
              socket.write(chunk);
            },
            close: () => void socket.end(),
            error: () => void socket.end(),
          },
        });
        for (const chunk of socket.data.pending) upstream.write(chunk);
        socket.data.pending = [];
        socket.data.upstream = upstream;
      },
      data(socket, chunk) {
        const messages = cut(socket.data, chunk);
        if (messages.length === 0) return;
        const forward = Buffer.concat(messages.map(({ type, message }) => (type ? (hooks.message?.(type, message) ?? message) : message)));
        hooks.write?.(messages.map(({ type }) => type).filter((type) => type !== ""));
        if (socket.data.upstream) socket.data.upstream.write(forward);
        else socket.data.pending.push(forward);
      },
      close: (socket) => void socket.data.upstream?.end(),
    },
  });
  return { port: server.port, stop: () => server.stop(true) };
}
