import { expect } from "bun:test";
import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts, placements } from "../db/schema";
import type { Harness } from "./harness";

/** Helpers for matrix tests that speak HTTP through the harness. */
export function matrixHelpers(h: Harness) {
  type User = Awaited<ReturnType<Harness["signUp"]>>;

  const buy = (user: { token: string }, program: string, level: number) =>
    h.call("POST", `/api/user/packages/purchase/${program}/${level}`, { token: user.token });
  const unfreeze = (user: { token: string }, program: string, level: number) =>
    h.call("POST", `/api/user/packages/unfreeze/${program}/${level}`, { token: user.token });

  /** Buys and expects success. */
  async function bought(user: { token: string }, program: string, level: number) {
    const res = await buy(user, program, level);
    expect(res.body).toEqual({ msg: "Level purchased successfully!" });
    expect(res.status).toBe(200);
  }

  /** GET /api/user/matrix: the current cycle, or lifetime cycle `cycle`. */
  const matrix = async (user: { token: string }, program: string, level: number, cycle?: number) =>
    (await h.call("GET", `/api/user/matrix/${program}/${level}${cycle === undefined ? "" : `?cycle=${cycle}`}`, { token: user.token })).body;
  /** GET /api/user/missed, page `page`. */
  const missed = async (user: { token: string }, page = 1) => (await h.call("GET", `/api/user/missed?page=${page}`, { token: user.token })).body;
  /** GET the preview of a purchase or an unfreeze (the whole answer: refusals too). */
  const preview = (action: "purchase" | "unfreeze", user: { token: string }, program: string, level: number) =>
    h.call("GET", `/api/user/packages/${action}/${program}/${level}/preview`, { token: user.token });
  const balance = async (user: { token: string }) => (await h.me(user.token)).balance as number;

  /** A funded user registered under `referrer` (the admin when omitted). */
  async function member(referrer?: User, dollars = 100, name?: string): Promise<User> {
    const user = await h.signUp({ referralId: referrer?.myReferralId, name });
    if (dollars > 0) await h.fund(user.token, dollars);
    return user;
  }

  return { buy, unfreeze, bought, matrix, missed, preview, balance, member };
}

export async function systemBalance(db: Db): Promise<bigint> {
  const [row] = await db.select({ balance: accounts.balance }).from(accounts).where(eq(accounts.id, "system"));
  return row!.balance;
}

/** The placement steps of a buyer's purchases, in order, as [owner, slot, cycle, outcome]. */
export async function stepsOf(db: Db, buyerId: string) {
  const rows = await db.select().from(placements).where(eq(placements.buyerId, buyerId)).orderBy(asc(placements.id));
  return rows.map((r) => [r.ownerId, r.slot, r.cycle, r.outcome] as const);
}
