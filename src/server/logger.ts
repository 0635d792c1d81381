import pino, { type DestinationStream, type Logger } from "pino";
import type { LogLevel } from "./config";

export type { Logger };

/**
 * The server's log: one JSON object a line on stdout (pino), with an ISO time, the level's name
 * and the process's pid (with WORKERS several processes write to one stdout). On a terminal the
 * same lines are written readable instead (`readableLine`): pino-pretty would bring a dozen
 * packages and a worker thread for that.
 */
export function createLogger(level: LogLevel, destination: DestinationStream = defaultDestination()): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** Logs nothing: the tests' (src/testing/harness.ts). */
export const silentLogger = (): Logger => pino({ level: "silent" });

function defaultDestination(): DestinationStream {
  if (process.stdout.isTTY) return { write: (line: string) => void process.stdout.write(readableLine(line)) };
  // Written in the background, the lines that came meanwhile together: a write a request cost
  // GET / more than half its rate (bench/RESULTS.md). Each write is whole lines of at most
  // PIPE_BUF bytes, so the workers' lines never mix on a shared pipe; what is left is written at exit.
  const destination = pino.destination({ fd: 1, sync: false, maxWrite: PIPE_BUF });
  process.on("exit", () => {
    try {
      destination.flushSync();
    } catch {}
  });
  return destination;
}

/** The most a write to a pipe may hold and still be written at once, never mixed with another's (Linux). */
const PIPE_BUF = 4096;

const LEVEL_COLOURS: Record<string, string> = { fatal: "35", error: "31", warn: "33", info: "32", debug: "36", trace: "90" };
const SHOWN_FIRST = new Set(["level", "time", "pid", "msg", "method", "route", "status", "ms"]);

/**
 * A JSON log line as a person reads it on a terminal:
 * `12:04:05.123 INFO  GET /api/user/gift 200 4.1ms reqId=... member=...`.
 */
export function readableLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const level = String(entry.level ?? "info");
  const time = typeof entry.time === "string" ? entry.time.slice(11, 23) : "";
  const head = entry.method ? `${entry.method} ${entry.route} ${entry.status} ${entry.ms}ms` : String(entry.msg ?? "");
  const rest = Object.entries(entry)
    .filter(([key]) => !SHOWN_FIRST.has(key) && key !== "err")
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  const label = `\u001b[${LEVEL_COLOURS[level] ?? "0"}m${level.toUpperCase().padEnd(5)}\u001b[0m`;
  const stack = (entry.err as { stack?: unknown } | undefined)?.stack;
  return `${time} ${label} ${[head, ...rest].join(" ")}\n${typeof stack === "string" ? `${stack}\n` : ""}`;
}
