/**
 * Counting what one execution of a statement costs Postgres, in instructions (callgrind, on
 * `postgres --single`): what bench/statements.ts and bench/variant.ts share. Needs valgrind and
 * the Postgres server binaries (`apt-get install -y valgrind postgresql`; PG_BIN=dir to pick them).
 */
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Executions measured per statement (and the smaller run subtracted, for the fixed start-up). */
const K = 20;
const K0 = 5;

function pgBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(root, v, "bin", "postgres"))) return join(root, v, "bin");
  throw new Error("no Postgres server binaries: apt-get install -y postgresql, or PG_BIN=dir");
}
export const BIN = pgBin();
if (Bun.spawnSync(["which", "valgrind"]).exitCode !== 0) throw new Error("valgrind is not installed: apt-get install -y valgrind");

/** Commands run as the `postgres` user when this is root (initdb and postgres refuse root). */
const asServerUser = (cmd: string[]) => (process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--", ...cmd] : cmd);
export function run(cmd: string[], input?: Blob): string {
  const result = Bun.spawnSync(asServerUser(cmd), { stdin: input ?? "ignore", stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed:\n${result.stdout}${result.stderr}`);
  return `${result.stdout}${result.stderr}`;
}

/** Hands `path` to the `postgres` user when this is root. */
export const own = (path: string) => {
  if (process.getuid?.() === 0) Bun.spawnSync(["chown", "-R", "postgres:", path]);
};

/** A value as a literal for EXECUTE (typed unknown, as postgres.js sends its parameters). */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  const text = value instanceof Date ? value.toISOString() : String(value);
  return `E'${text.replace(/\\/g, "\\\\").replace(/'/g, "''").replace(/\n/g, "\\n")}'`;
}

/** Instructions per function in a callgrind output (callgrind_annotate's table): inclusive, or exclusive with `self`. */
function byFunction(file: string, self: boolean): Map<string, number> {
  const out = Bun.spawnSync(["callgrind_annotate", `--inclusive=${self ? "no" : "yes"}`, "--threshold=100", file], { stdout: "pipe", stderr: "pipe" }).stdout.toString();
  const counts = new Map<string, number>();
  for (const line of out.split("\n")) {
    const match = /^\s*([\d,]+)\s+\([^)]*\)\s+(?:\S*:)?(\S+)/.exec(line);
    if (match) counts.set(match[2]!, (counts.get(match[2]!) ?? 0) + Number(match[1]!.replace(/,/g, "")));
  }
  return counts;
}

/**
 * A counter of statements' instructions on the stopped cluster in `cluster`, its files written in
 * `work` (both the `postgres` user's when this is root). `self`: functions' figures exclusive.
 */
export function counter(cluster: string, work: string, self = false) {
  /** Instructions callgrind counted for `postgres --single` running `commands` on the cluster (and, with `profile`, per function). */
  function instructions(commands: string[], profile?: Map<string, number>[]): number {
    const input = join(work, "input.sql");
    // -j: a command ends at a semicolon and an empty line, so statements may span lines.
    writeFileSync(input, ["SET plan_cache_mode = force_generic_plan", "SET random_page_cost = 1.1", ...commands].map((c) => `${c.replace(/\n\s*\n/g, "\n")};\n\n`).join(""));
    own(input);
    const out = run(["valgrind", "--tool=callgrind", `--callgrind-out-file=${join(work, "callgrind.out")}`, join(BIN, "postgres"), "--single", "-j", "-D", cluster, "postgres"], Bun.file(input));
    if (/ERROR:/.test(out)) throw new Error(`a statement failed in postgres --single:\n${out.split("\n").filter((l) => /ERROR|DETAIL|STATEMENT/.test(l)).slice(0, 6).join("\n")}`);
    if (profile) profile.push(byFunction(join(work, "callgrind.out"), self));
    const collected = /Collected : ([\d,]+)/.exec(out)?.[1];
    if (!collected) throw new Error(`callgrind printed no count:\n${out.slice(-2000)}`);
    return Number(collected.replace(/,/g, ""));
  }

  /** One execution of prepared `statement` as `execute` says, in a transaction rolled back each time. */
  function measure(statement: string, execute: string, functions?: Map<string, number>): number {
    // BEGIN as the server's purchase sends it: its first statement checks the mark (src/db/pipelinedBegin.ts).
    const times = (k: number) => Array.from({ length: k }, () => ["BEGIN DEFERRABLE", execute, "ROLLBACK"]).flat();
    const prepared = [`PREPARE s AS ${statement}`];
    const profiles: Map<string, number>[] | undefined = functions ? [] : undefined;
    const cost = (instructions([...prepared, ...times(K)], profiles) - instructions([...prepared, ...times(K0)], profiles)) / (K - K0);
    if (functions && profiles) for (const [name, n] of profiles[0]!) functions.set(name, (n - (profiles[1]!.get(name) ?? 0)) / (K - K0));
    return cost;
  }

  let transactionAlone: number | undefined;

  /** One execution of `text` with `params`, less a transaction of SELECT 1 (its begin, end and the simplest statement). */
  function perExecution(text: string, params: unknown[], functions?: Map<string, number>): number {
    transactionAlone ??= measure("SELECT 1", "EXECUTE s");
    return measure(text, params.length === 0 ? "EXECUTE s" : `EXECUTE s(${params.map(literal).join(", ")})`, functions) - transactionAlone;
  }

  return { instructions, perExecution };
}
