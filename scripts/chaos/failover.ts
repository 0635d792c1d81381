/**
 * A primary and a synchronous standby on loopback ports, made for `bun run chaos --failover`:
 * initdb, pg_basebackup, pg_ctl, as the `postgres` system user when run as root (Postgres refuses
 * to run as root). Every commit the primary acknowledges is on the standby first
 * (synchronous_standby_names = '*'), so a promoted standby holds every acknowledged operation.
 */
import { appendFileSync, chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BIN = ["/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/17/bin"].find((dir) => existsSync(join(dir, "initdb")));

/** Runs a Postgres program, as the postgres user when this process is root; throws with its output when it fails. */
function run(program: string, args: string[]): string {
  if (!BIN) throw new Error("--failover needs the Postgres server programs (initdb, pg_ctl, pg_basebackup) in /usr/lib/postgresql/*/bin");
  const command = [join(BIN, program), ...args];
  const asRoot = process.getuid?.() === 0;
  const done = Bun.spawnSync(asRoot ? ["runuser", "-u", "postgres", "--", ...command] : command, { stdout: "pipe", stderr: "pipe" });
  const output = `${done.stdout.toString()}${done.stderr.toString()}`;
  if (done.exitCode !== 0) throw new Error(`${program} ${args.join(" ")} failed (${done.exitCode}): ${output.slice(-2000)}`);
  return output;
}

export class PostgresPair {
  private readonly root = mkdtempSync(join(tmpdir(), "chaos-failover-"));
  private readonly primaryDir = join(this.root, "primary");
  private readonly standbyDir = join(this.root, "standby");
  private primaryUp = false;
  private standbyUp = false;
  promoted = false;

  constructor(
    readonly primaryPort: number,
    readonly standbyPort: number,
  ) {
    if (process.getuid?.() === 0) {
      const postgresUser = Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString().trim();
      const postgresGroup = Bun.spawnSync(["id", "-g", "postgres"]).stdout.toString().trim();
      chownSync(this.root, Number(postgresUser), Number(postgresGroup));
    }
  }

  /** The URL the servers are given: both hosts, the one that takes writes chosen at each connect. */
  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.primaryPort},127.0.0.1:${this.standbyPort}/${database}?target_session_attrs=read-write`;
  }

  /** The one that takes writes now: the primary, or the standby once promoted. */
  writerUrl(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.promoted ? this.standbyPort : this.primaryPort}/${database}`;
  }

  async start(): Promise<void> {
    run("initdb", ["-D", this.primaryDir, "-U", "postgres", "-A", "trust", "--no-sync"]);
    // In postgresql.conf, which the standby's copy inherits, and not on the command line, where
    // they would outrank the ALTER SYSTEM of the promotion.
    appendFileSync(
      join(this.primaryDir, "postgresql.conf"),
      [
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${this.root}'`,
        "wal_level = replica",
        "max_wal_senders = 4",
        "synchronous_commit = on",
        "synchronous_standby_names = '*'",
        "max_connections = 200",
        "fsync = off",
        "",
      ].join("\n"),
    );
    run("pg_ctl", ["-D", this.primaryDir, "-l", join(this.root, "primary.log"), "-w", "-o", `-p ${this.primaryPort}`, "start"]);
    this.primaryUp = true;
    // -R: standby.signal and primary_conninfo, so it streams from the primary once started.
    run("pg_basebackup", ["-h", "127.0.0.1", "-p", String(this.primaryPort), "-U", "postgres", "-D", this.standbyDir, "-R", "-X", "stream", "--no-sync"]);
    run("pg_ctl", ["-D", this.standbyDir, "-l", join(this.root, "standby.log"), "-w", "-o", `-p ${this.standbyPort}`, "start"]);
    this.standbyUp = true;
    await this.waitForSync();
  }

  /** Until the primary reports the standby as its synchronous one. */
  private async waitForSync(): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const state = run("psql", ["-h", "127.0.0.1", "-p", String(this.primaryPort), "-U", "postgres", "-Atc", "SELECT sync_state FROM pg_stat_replication"]).trim();
      if (state === "sync") return;
      await Bun.sleep(100);
    }
    throw new Error("the standby did not become synchronous in 30 s");
  }

  /** The primary dies as in a crash: no checkpoint, its connections cut. */
  killPrimary(): void {
    run("pg_ctl", ["-D", this.primaryDir, "-m", "immediate", "stop"]);
    this.primaryUp = false;
  }

  /**
   * The standby becomes the primary, as Patroni does it (synchronous_mode, not strict): with no
   * standby left to wait for, its commits no longer wait for one, or every write would hang.
   */
  promote(): void {
    run("pg_ctl", ["-D", this.standbyDir, "-w", "promote"]);
    this.promoted = true;
    const psql = ["-h", "127.0.0.1", "-p", String(this.standbyPort), "-U", "postgres", "-Atc"];
    run("psql", [...psql, "ALTER SYSTEM SET synchronous_standby_names = ''"]);
    run("psql", [...psql, "SELECT pg_reload_conf()"]);
  }

  async stop(): Promise<void> {
    for (const [up, dir] of [
      [this.standbyUp, this.standbyDir],
      [this.primaryUp, this.primaryDir],
    ] as const) {
      if (up) {
        try {
          run("pg_ctl", ["-D", dir, "-m", "immediate", "stop"]);
        } catch {}
      }
    }
    this.primaryUp = this.standbyUp = false;
    rmSync(this.root, { recursive: true, force: true });
  }
}
