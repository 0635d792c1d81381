import type { Subprocess } from "bun";
import type { MetricObjectWithValues, MetricValue, Registry } from "prom-client";
import { isWorker } from "./cluster";

/*
 * With WORKERS, a scrape of /metrics reaches one worker (the kernel spreads connections), yet each
 * worker counts only its own requests. So the worker that is asked gathers every worker's figures
 * through the supervisor, over the IPC channel they already share, and answers their sum:
 *
 *   worker -> supervisor  {metricsAsk: id}
 *   supervisor -> each    {metricsCollect: id}
 *   each -> supervisor    {metricsPart: id, part}     (prom-client's getMetricsAsJSON)
 *   supervisor -> worker  {metricsParts: id, parts}   (those that answered within PART_TIMEOUT_MS)
 *
 * The supervisor only relays JSON: it never loads prom-client.
 */

type Part = MetricObjectWithValues<MetricValue<string>>[];
type Message = { metricsAsk?: string; metricsCollect?: string; metricsPart?: string; part?: Part; metricsParts?: string; parts?: Part[] };

/** How long the supervisor waits for each worker's figures; one that is late is left out of that scrape. */
const PART_TIMEOUT_MS = 1_000;
/** How long a worker waits for the supervisor's answer before it answers with its own figures alone. */
const ASK_TIMEOUT_MS = 2_000;

const asked = new Map<string, (parts: Part[] | null) => void>();
/** The registry this worker's figures are read from when the supervisor collects (the latest app's). */
let ownRegistry: Registry | undefined;
let listening = false;

function listen() {
  if (listening) return;
  listening = true;
  process.on("message", (message: Message) => {
    if (message?.metricsCollect !== undefined) {
      const id = message.metricsCollect;
      void (ownRegistry?.getMetricsAsJSON() ?? Promise.resolve([])).then((part) => process.send?.({ metricsPart: id, part }));
    } else if (message?.metricsParts !== undefined) {
      asked.get(message.metricsParts)?.(message.parts ?? null);
      asked.delete(message.metricsParts);
    }
  });
}

/**
 * In a worker: every worker's figures (this one's among them), gathered through the supervisor;
 * null outside a worker, or when the supervisor did not answer in time (the caller then answers
 * with its own figures).
 */
export async function metricsOfAllWorkers(registry: Registry): Promise<Part[] | null> {
  if (!isWorker() || !process.send) return null;
  ownRegistry = registry;
  listen();
  const id = crypto.randomUUID();
  const answer = new Promise<Part[] | null>((resolve) => {
    asked.set(id, resolve);
    setTimeout(() => {
      if (asked.delete(id)) resolve(null);
    }, ASK_TIMEOUT_MS).unref?.();
  });
  process.send({ metricsAsk: id });
  const parts = await answer;
  return parts && parts.length > 0 ? parts : null;
}

/** In a worker, from its start: answers the supervisor's collections with `registry`'s figures. */
export function answerCollections(registry: Registry): void {
  if (!isWorker()) return;
  ownRegistry = registry;
  listen();
}

/**
 * In the supervisor: the IPC messages of the metrics relay. `handle(message, from)` takes a
 * worker's message and answers whether it was one of the relay's; `workers()` are those running.
 */
export function metricsRelay(workers: () => Subprocess[]) {
  const collecting = new Map<string, { parts: Part[]; waiting: number; done: () => void }>();
  return (message: unknown, from: Subprocess): boolean => {
    const said = message as Message;
    if (said?.metricsAsk !== undefined) {
      const id = said.metricsAsk;
      const running = workers();
      const parts: Part[] = [];
      const done = () => {
        if (!collecting.delete(id)) return;
        clearTimeout(timer);
        try {
          from.send({ metricsParts: id, parts });
        } catch {
          // The asking worker is gone.
        }
      };
      const timer = setTimeout(done, PART_TIMEOUT_MS);
      collecting.set(id, { parts, waiting: running.length, done });
      for (const worker of running) {
        try {
          worker.send({ metricsCollect: id });
        } catch {
          collecting.get(id)!.waiting--;
        }
      }
      if (collecting.get(id)!.waiting <= 0) done();
      return true;
    }
    if (said?.metricsPart !== undefined) {
      const entry = collecting.get(said.metricsPart);
      if (entry && said.part) {
        entry.parts.push(said.part);
        if (--entry.waiting <= 0) entry.done();
      }
      return true;
    }
    return false;
  };
}
