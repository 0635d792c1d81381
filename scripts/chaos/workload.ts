import { call, type Outcome } from "./client";
import type { ServerProcess } from "./servers";
import { StreamClient } from "./streams";

/** A valid TRON address (base58check): every deposit of the run comes from it. */
const CHAOS_SENDER = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

/** What the clients were told, per thing the verifier can count in the database. */
export interface Journal {
  ops: number;
  lost: number;
  /** Answers 503 database_unavailable (a failover run only; elsewhere they are server errors). */
  unavailable: number;
  serverErrors: { path: string; status: number; body: unknown }[];
  /** email -> registration acknowledged */
  registrations: Map<string, "acked" | "lost" | "refused">;
  /** transactionId -> outcome */
  deposits: Map<string, "acked" | "lost" | "refused">;
  /** per user id: [acked, lost] */
  withdrawals: Map<string, [number, number]>;
  gifts: Map<string, [number, number]>;
  /** `${userId}:${program}:${level}` -> [acked, lost] */
  purchases: Map<string, [number, number]>;
  unfreezes: Map<string, [number, number]>;
}

export const newJournal = (): Journal => ({
  ops: 0,
  lost: 0,
  unavailable: 0,
  serverErrors: [],
  registrations: new Map(),
  deposits: new Map(),
  withdrawals: new Map(),
  gifts: new Map(),
  purchases: new Map(),
  unfreezes: new Map(),
});

const bump = (map: Map<string, [number, number]>, key: string, outcome: Outcome) => {
  const entry = map.get(key) ?? [0, 0];
  if (outcome.kind === "lost") entry[1]++;
  else if (outcome.status < 300) entry[0]++;
  map.set(key, entry);
};

export interface World {
  servers: ServerProcess[];
  /** Every `streamEvery`-th client also keeps its event stream open (0: none). */
  streamEvery: number;
  streams: StreamClient[];
  journal: Journal;
  budget: { left: number };
  referralIds: string[];
  emails: string[];
  rand: () => number;
  /** A failover run: a 503 database_unavailable is expected, and its outcome unknown (as a lost call's). */
  databaseMayBeAway?: boolean;
}

function pick<T>(world: World, items: T[]): T {
  return items[Math.floor(world.rand() * items.length)]!;
}

/**
 * Sends to a live server; when none is up (mid-restart), waits a moment. A 429 (password
 * hashing queue full during a burst of sign-ins, or a throttle) did nothing: it is sent again
 * after a pause.
 */
async function send(world: World, method: string, path: string, token?: string, body?: unknown): Promise<Outcome> {
  for (;;) {
    const live = world.servers.filter((s) => s.alive);
    if (live.length > 0) {
      const outcome = await call(pick(world, live).url, method, path, token, body);
      world.journal.ops++;
      if (outcome.kind === "answered" && outcome.status === 429) {
        await Bun.sleep(100 + Math.random() * 400);
        continue;
      }
      if (world.databaseMayBeAway && outcome.kind === "answered" && outcome.status === 503 && outcome.body?.code === "database_unavailable") {
        world.journal.unavailable++;
        return { kind: "lost" };
      }
      if (outcome.kind === "lost") world.journal.lost++;
      else if (outcome.status >= 500) world.journal.serverErrors.push({ path, status: outcome.status, body: outcome.body });
      return outcome;
    }
    await Bun.sleep(50);
  }
}

const ok = (o: Outcome) => o.kind === "answered" && o.status < 300;

/** One client: signs up, then spends its share of the budget on random money operations. */
export async function userLoop(world: World, n: number): Promise<void> {
  const email = `chaos${n}-${Date.now().toString(36)}@load.test`;
  const password = "chaos-password";
  let outcome: Outcome;
  do {
    outcome = await send(world, "POST", "/auth/register", undefined, { name: `Chaos ${n}`, email, password, referralId: pick(world, world.referralIds) });
    world.journal.registrations.set(email, outcome.kind === "lost" ? "lost" : outcome.status < 300 ? "acked" : "refused");
    // A lost registration may have happened: log in to find out instead of registering twice.
    if (outcome.kind === "lost" && ok(await send(world, "POST", "/auth/login", undefined, { email, password }))) break;
  } while (outcome.kind === "lost");
  let token: string | undefined;
  while (!token) {
    const login = await send(world, "POST", "/auth/login", undefined, { email, password });
    if (ok(login) && login.kind === "answered") token = login.body.token;
  }
  world.emails.push(email);
  let me: any;
  const refresh = async () => {
    const res = await send(world, "GET", "/auth", token);
    if (ok(res) && res.kind === "answered") me = res.body;
  };
  await refresh();
  if (me?.myReferralId) world.referralIds.push(me.myReferralId);
  while (!me) await refresh();
  if (world.streamEvery > 0 && n % world.streamEvery === 0) world.streams.push(new StreamClient(world.servers, token, me._id));

  while (world.budget.left-- > 0) {
    if (!me) {
      await refresh();
      continue;
    }
    const r = world.rand();
    if (r < 0.25) {
      // A TRC20 transaction ID (64 hex characters) from a valid TRON address.
      const transactionId = `${crypto.randomUUID()}${crypto.randomUUID()}`.replaceAll("-", "");
      const res = await send(world, "POST", "/user/deposit", token, { address: CHAOS_SENDER, transactionId, amount: 5 + Math.floor(world.rand() * 200) });
      world.journal.deposits.set(transactionId, res.kind === "lost" ? "lost" : res.status < 300 ? "acked" : "refused");
    } else if (r < 0.55) {
      const program = world.rand() < 0.5 ? "3p" : "6p";
      const levels: { level: number; status: string }[] = me.packages[program].levels;
      const frozen = levels.find((l) => l.status === "frozen");
      const next = levels.find((l) => l.status === "locked");
      if (frozen && world.rand() < 0.5) {
        const res = await send(world, "POST", `/user/packages/unfreeze/${program}/${frozen.level}`, token);
        bump(world.journal.unfreezes, `${me._id}:${program}:${frozen.level}`, res);
      } else if (next) {
        const res = await send(world, "POST", `/user/packages/purchase/${program}/${next.level}`, token);
        bump(world.journal.purchases, `${me._id}:${program}:${next.level}`, res);
      }
    } else if (r < 0.75) {
      const to = pick(world, world.emails);
      if (to !== email) {
        const res = await send(world, "POST", "/user/gift", token, { amount: (1 + Math.floor(world.rand() * 500)) / 100, recipientEmail: to });
        bump(world.journal.gifts, me._id, res);
      }
    } else {
      const available = me.balance - me.pendingWithdrawalsTotal;
      const amount = Math.max(1, Math.floor(world.rand() * (available + 5)));
      const res = await send(world, "POST", "/user/withdraw", token, { accountType: "USDT TRC20", accountNumber: "TBFXJJ97uPDyaqkCPkNVS6gQqRcGKHAi5B", amount });
      bump(world.journal.withdrawals, me._id, res);
    }
    await refresh();
  }
}

/** The admins: decide pending requests until the clients are done. */
export async function adminLoop(world: World, token: string, done: () => boolean): Promise<void> {
  while (!done()) {
    for (const kind of ["deposits", "withdrawals"] as const) {
      const list = await send(world, "GET", `/admin/${kind}?status=pending`, token);
      if (!ok(list) || list.kind !== "answered" || list.body.length === 0) continue;
      // Decide a handful per look, in random order, so requests do not pile up under load.
      const pending = [...(list.body as { _id: string }[])].sort(() => world.rand() - 0.5).slice(0, 10);
      for (const request of pending) {
        const status = world.rand() < 0.8 ? "accepted" : "declined";
        await send(world, "PUT", `/admin/${kind}/${request._id}`, token, { status });
      }
    }
    await Bun.sleep(5);
  }
}
