/**
 * What an edited version of one recorded statement would cost Postgres, in instructions, on the
 * same copy as the original: for trying a change to a statement in a minute before making it.
 *
 *   bun bench/statements.ts --keep DIR      (once: records the statements and keeps their copy)
 *   bun bench/variant.ts DIR REQUEST INDEX [--sql FILE] [--params FILE] [--setup SQL]
 *
 * REQUEST is `purchase`, `auth` or `passedUp` (bench/statements.ts's requests), INDEX the
 * statement's place among that request's (0: the first; BEGIN and COMMIT count). `--sql FILE`:
 * another text for it (the recorded one is DIR/statements.json's `text`); `--params FILE`: other
 * values (a JSON array, as `params` there); `--setup SQL`: statements run on the copy first, not
 * counted (`;`-separated: DROP INDEX, ALTER TABLE...). Prints the recorded statement's figure and
 * the variant's, each on a fresh copy of DIR/cluster: the statements' rolled-back runs leave dead
 * rows behind, which change the figures of the runs after them.
 *
 * The values are written into the EXECUTE command as literals, which `postgres --single` reads
 * one character at a time: a variant with longer values is charged for reading them, which a
 * server reading a Bind message is not. Compare variants with the same values.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, counter, own, run } from "./callgrind";

const [dir, request, index] = process.argv.slice(2);
const option = (name: string) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
};
if (!dir || !request || index === undefined) throw new Error("usage: bun bench/variant.ts DIR REQUEST INDEX [--sql FILE] [--params FILE] [--setup SQL]");
const recorded = (JSON.parse(readFileSync(join(dir, "statements.json"), "utf8")) as Record<string, { text: string; params: unknown[] }[]>)[request]?.[Number(index)];
if (!recorded) throw new Error(`${dir}/statements.json has no statement ${index} of ${request}`);
const sqlFile = option("--sql");
const paramsFile = option("--params");
const setup = option("--setup");

const work = mkdtempSync(join(tmpdir(), "bench-variant-"));
try {
  /** Instructions of one execution of `text` with `params` on a fresh copy of the kept cluster (with the set-up made first). */
  const figure = (text: string, params: unknown[], withSetup: boolean) => {
    const cluster = join(work, "cluster");
    rmSync(cluster, { recursive: true, force: true });
    cpSync(join(dir, "cluster"), cluster, { recursive: true });
    own(work);
    if (withSetup && setup) {
      const out = run([join(BIN, "postgres"), "--single", "-j", "-D", cluster, "postgres"], new Blob([setup.split(";").map((s) => `${s};\n\n`).join("")]));
      if (/ERROR:/.test(out)) throw new Error(`--setup failed:\n${out}`);
    }
    return counter(cluster, work).perExecution(text, params);
  };
  const text = sqlFile ? readFileSync(sqlFile, "utf8") : recorded.text;
  const params = paramsFile ? (JSON.parse(readFileSync(paramsFile, "utf8")) as unknown[]) : recorded.params;
  const original = figure(recorded.text, recorded.params, false);
  const variant = figure(text, params, true);
  const n = (x: number) => Math.round(x).toLocaleString("en-US").padStart(12);
  console.log(`${n(original)}  ${request} ${index} as recorded: ${recorded.text.replace(/\s+/g, " ").trim().slice(0, 60)}`);
  console.log(`${n(variant)}  the variant (${[sqlFile && `text ${sqlFile}`, paramsFile && `values ${paramsFile}`, setup && `after: ${setup}`].filter(Boolean).join(", ") || "unchanged"}): ${(variant / original).toFixed(3)}x`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
