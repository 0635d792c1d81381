import { beforeAll, describe, expect, test } from "bun:test";
import { Secret, TOTP } from "otpauth";
import { depositAddresses } from "../../db/schema";
import { PROGRAMS, TOTAL_COUNT_HEADER } from "../../shared/constants";
import type { Harness } from "../../testing/harness";
import { matrixHelpers } from "../../testing/matrix";
import { useMoneyHarness } from "../../testing/useHarness";

/**
 * GET /api/admin/users/:id and its lists: a member's whole record for the operator. Every figure
 * is checked against what the member's own endpoints answer the member, for the same member.
 */
let h: Harness;
let m: ReturnType<typeof matrixHelpers>;
type User = Awaited<ReturnType<Harness["signUp"]>>;
let sam: User;
let ann: User;
let gone: User;
let leaf: User;
let withdrawalId: string;

useMoneyHarness((made) => {
  h = made;
  m = matrixHelpers(made);
});

const admin = (path: string) => h.call("GET", `/api/admin/users/${path}`, { token: h.adminToken });
const own = (path: string) => h.call("GET", `/api/user/${path}`, { token: ann.token });

/** Every page of a member list that answers `{[key]: rows, totalPages}`. */
async function allPages(path: string, key: string): Promise<unknown[]> {
  const rows: unknown[] = [];
  for (let page = 1; ; page++) {
    const res = await h.call("GET", `${path}${path.includes("?") ? "&" : "?"}page=${page}`, { token: path.startsWith("/api/admin") ? h.adminToken : ann.token });
    expect(res.status).toBe(200);
    rows.push(...res.body[key]);
    if (page >= res.body.totalPages) return rows;
  }
}

const codeOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp: Date.now() - 30_000 });

/**
 * Ann, under Sam: 3P level 1 frozen by two cycles her partners filled, a payment missed there
 * since, one missed at 3P level 2 she never bought, 6P level 1 active; a declined deposit, a gift
 * from system funds, a pending withdrawal; seven partners, one of them deleted (whose own partner
 * stays in her team); 2FA on.
 */
beforeAll(async () => {
  sam = await m.member(undefined, 20, "Sam Sponsor");
  ann = await m.member(sam, 100, "Ann Member");
  await m.bought(ann, "3p", 1);
  await m.bought(ann, "6p", 1);
  const partners: User[] = [];
  for (let i = 0; i < 6; i++) {
    const partner = await m.member(ann, 20, `Partner ${i + 1}`);
    await m.bought(partner, "3p", 1);
    partners.push(partner);
  }
  const late = await m.member(ann, 20, "Late Partner");
  await m.bought(late, "3p", 1); // passes Ann by: her level is frozen
  await m.bought(late, "3p", 2); // passes Ann by: she has no level 2
  gone = partners[0]!;
  leaf = await h.signUp({ referralId: gone.myReferralId, name: "Under Gone" });
  expect((await h.call("DELETE", `/api/admin/users/${gone.id}`, { token: h.adminToken })).status).toBe(200);
  expect((await h.decide("deposits", await h.deposit(ann.token, 7), "declined")).status).toBe(200);
  expect((await h.call("POST", `/api/admin/users/${ann.id}/gift`, { token: h.adminToken, body: { amount: 3 } })).status).toBe(200);
  withdrawalId = await h.withdraw(ann.token, 10);
  const setup = await h.call("POST", "/api/auth/2fa/setup", { token: ann.token, body: { currentPassword: ann.password } });
  const enabled = await h.call("POST", "/api/auth/2fa/enable", { token: ann.token, body: { code: codeOf(setup.body.secret), currentPassword: ann.password } });
  expect(enabled.status).toBe(200);
  ann = { ...ann, token: enabled.body.token };
});

describe("GET /api/admin/users/{id}", () => {
  test("answers the member's profile, money and team exactly as GET /api/auth answers the member", async () => {
    const res = await admin(ann.id);
    expect(res.status).toBe(200);
    const me = await h.me(ann.token);
    const record = res.body;
    expect(record).toMatchObject({
      _id: ann.id,
      name: "Ann Member",
      email: ann.email,
      myReferralId: me.myReferralId,
      referrer: { _id: sam.id, name: "Sam Sponsor", myReferralId: sam.myReferralId, deleted: false },
      createdAt: me.createdAt,
      role: "user",
      status: "active",
      twoFactor: true,
      emailVerified: me.emailVerified,
      balance: me.balance,
      held: me.pendingWithdrawalsTotal,
      available: me.balance - me.pendingWithdrawalsTotal,
      totalPartners: me.totalPartners,
      directPartners: me.directPartners,
    });
    // The scenario's own figures: 100 deposited, 5 + 5 spent, 4 slots paid her 5 each, a gift of 3.
    expect([record.balance, record.held, record.available]).toEqual([113, 10, 103]);
    expect([record.directPartners, record.totalPartners]).toEqual([6, 7]);
    expect(JSON.stringify(record).toLowerCase()).not.toContain("password");
  });

  test("answers every level of both programs with the figures of the member's level cards and matrices", async () => {
    const { programs, earned, missed } = (await admin(ann.id)).body;
    const me = await h.me(ann.token);
    for (const program of PROGRAMS) {
      expect(programs[program]).toHaveLength(me.packages[program].levels.length);
      for (const card of me.packages[program].levels) {
        const mine = await m.matrix(ann, program, card.level);
        expect({ program, ...programs[program][card.level - 1] }).toEqual({
          program,
          level: card.level,
          status: card.status,
          cycles: card.cycles,
          filled: card.boxes.length,
          cycle: mine.cycle,
          cyclesCompleted: mine.cyclesCompleted,
          earned: mine.earned,
          missed: mine.missed,
        });
      }
    }
    expect(programs["3p"][0]).toMatchObject({ status: "frozen", cycle: 2, cyclesCompleted: 2, earned: 20, missed: 5 });
    expect(programs["3p"][1]).toMatchObject({ status: "locked", earned: 0, missed: 10 });
    expect(programs["6p"][0]).toMatchObject({ status: "active", cycle: 1, earned: 0, missed: 0 });
    // The lifetime totals are the Earnings page's, and the levels add up to them.
    const earnings = (await own("earnings?days=1")).body;
    expect([earned, missed]).toEqual([earnings.lifetimeEarned, earnings.lifetimeMissed]);
    const sum = (key: "earned" | "missed") => PROGRAMS.flatMap((p) => programs[p]).reduce((total: number, l: Record<string, number>) => total + l[key]!, 0);
    expect([sum("earned"), sum("missed")]).toEqual([20, 15]);
  });

  test("names a deleted referrer as deleted, and the first account has none", async () => {
    expect((await admin(leaf.id)).body.referrer).toEqual({ _id: gone.id, name: gone.name, myReferralId: gone.myReferralId, deleted: true });
    const root = await h.me(h.adminToken);
    expect((await admin(root._id)).body).toMatchObject({ _id: root._id, referrer: null, role: "admin", status: "active", twoFactor: false });
  });

  test("answers 404 user_not_found for an unknown, malformed or deleted member", async () => {
    for (const id of ["no-such-user", "%20", "x".repeat(500), gone.id]) {
      expect({ id, ...(await admin(id)) }).toMatchObject({ id, status: 404, body: { msg: "User not found.", code: "user_not_found" } });
      for (const list of ["transactions", "missed", "requests", "partners", "audit", "matrix/3p/1"]) {
        expect({ id, list, ...(await admin(`${id}/${list}`)) }).toMatchObject({ id, list, status: 404, body: { code: "user_not_found" } });
      }
    }
  });
});

describe("the lists of a member's record", () => {
  test("transactions: the member's statement, paged by page and limit, with X-Total-Count and the statement's filters", async () => {
    const statement = await allPages("/api/user/transactions", "transactions");
    const res = await admin(`${ann.id}/transactions?limit=100`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(statement);
    expect(res.headers.get(TOTAL_COUNT_HEADER)).toBe(String(statement.length));
    expect(statement.length).toBeGreaterThan(6);

    const second = await admin(`${ann.id}/transactions?page=2&limit=3`);
    expect(second.body).toEqual(statement.slice(3, 6));
    expect(second.headers.get(TOTAL_COUNT_HEADER)).toBe(String(statement.length));
    // 20 a page by default, as the member's own.
    expect((await admin(`${ann.id}/transactions`)).body).toEqual(statement.slice(0, 20));
    const past = await admin(`${ann.id}/transactions?page=99&limit=5`);
    expect([past.body, past.headers.get(TOTAL_COUNT_HEADER)]).toEqual([[], String(statement.length)]);

    const earnings = await admin(`${ann.id}/transactions?kind=earning&limit=100`);
    expect(earnings.body).toEqual(await allPages("/api/user/transactions?kind=earning", "transactions"));
    expect(earnings.headers.get(TOTAL_COUNT_HEADER)).toBe("4");
  });

  test("missed: the member's missed earnings, paged, with X-Total-Count and the program and level filters", async () => {
    const theirs = (await own("missed")).body;
    const res = await admin(`${ann.id}/missed?limit=100`);
    expect(res.body).toEqual(theirs.items);
    expect(res.headers.get(TOTAL_COUNT_HEADER)).toBe(String(theirs.total));
    expect(res.body.map((i: { reason: string; level: number }) => `${i.reason}/${i.level}`)).toEqual(["not_active/2", "frozen/1"]);
    expect((await admin(`${ann.id}/missed?page=2&limit=1`)).body).toEqual(theirs.items.slice(1));
    const one = await admin(`${ann.id}/missed?program=3p&level=2`);
    expect([one.body, one.headers.get(TOTAL_COUNT_HEADER)]).toEqual([(await own("missed?program=3p&level=2")).body.items, "1"]);
  });

  test("requests: the member's deposits and withdrawals in every state, paged, with X-Total-Count", async () => {
    const theirs = await allPages("/api/user/requests", "items");
    const res = await admin(`${ann.id}/requests?limit=100`);
    expect(res.body).toEqual(theirs);
    expect(res.headers.get(TOTAL_COUNT_HEADER)).toBe("3");
    expect(res.body.map((r: { type: string; status: string }) => `${r.type} ${r.status}`)).toEqual(["withdrawal pending", "deposit declined", "deposit accepted"]);
    expect(res.body[0]._id).toBe(withdrawalId);
    expect((await admin(`${ann.id}/requests?page=2&limit=2`)).body).toEqual(theirs.slice(2));
    expect((await admin(`${ann.id}/requests?type=deposit`)).body).toEqual(await allPages("/api/user/requests?type=deposit", "items"));
  });

  test("partners: the member's direct partners, those who left included, paged, with X-Total-Count", async () => {
    const theirs = await allPages("/api/user/partners", "partners");
    const res = await admin(`${ann.id}/partners?limit=100`);
    expect(res.body).toEqual(theirs);
    expect(res.headers.get(TOTAL_COUNT_HEADER)).toBe("7");
    expect(res.body.filter((p: { deleted: boolean }) => p.deleted).map((p: { _id: string }) => p._id)).toEqual([gone.id]);
    const pageTwo = await admin(`${ann.id}/partners?page=2&limit=3`);
    expect([pageTwo.body, pageTwo.headers.get(TOTAL_COUNT_HEADER)]).toEqual([theirs.slice(3, 6), "7"]);
  });

  test("audit: the trail's entries about the member (account, requests, own deposit addresses), none about anyone else, paged", async () => {
    // Their own deposit addresses, as the address watcher gives them (no chain here), each marked swept.
    await h.db.insert(depositAddresses).values([
      { network: "BEP20", index: 0, userId: ann.id, address: "0x00000000000000000000000000000000000000a0", hex: "0x00000000000000000000000000000000000000a0" },
      { network: "BEP20", index: 1, userId: sam.id, address: "0x00000000000000000000000000000000000000a1", hex: "0x00000000000000000000000000000000000000a1" },
    ]);
    for (const index of [0, 1]) {
      expect((await h.call("POST", `/api/admin/deposit-addresses/BEP20/${index}/swept`, { token: h.adminToken, body: {} })).status).toBe(200);
    }
    const everything = (await allPages("/api/admin/audit", "entries")) as { targetType: string; targetId: string }[];
    const requests = new Set(((await admin(`${ann.id}/requests?limit=100`)).body as { _id: string }[]).map((r) => r._id));
    const about = everything.filter(
      (e) => (e.targetType === "user" && e.targetId === ann.id) || requests.has(e.targetId) || (e.targetType === "deposit_address" && e.targetId === "BEP20:0"),
    );
    const res = await admin(`${ann.id}/audit?limit=100`);
    expect(res.body).toEqual(about);
    expect(res.body.map((e: { action: string }) => e.action)).toEqual(["address_swept", "admin_gift", "deposit_decision", "deposit_decision"]);
    expect(res.headers.get(TOTAL_COUNT_HEADER)).toBe("4");
    // Sam's deposit and address, the deletion of Ann's partner: in the trail, not in her record.
    expect(everything.length).toBeGreaterThan(about.length + 2);
    expect((await admin(`${ann.id}/audit?page=3&limit=1`)).body).toEqual(about.slice(2, 3));

    // A decision taken now is listed first.
    expect((await h.decide("withdrawals", withdrawalId, "declined")).status).toBe(200);
    const after = await admin(`${ann.id}/audit?limit=1`);
    expect([after.body[0].action, after.body[0].targetId, after.headers.get(TOTAL_COUNT_HEADER)]).toEqual(["withdrawal_decision", withdrawalId, "5"]);
  });

  test("matrix: the member's matrix at a level in any cycle, as GET /api/user/matrix answers the member", async () => {
    for (const [program, level, cycle] of [["3p", 1, 1], ["3p", 1, 2], ["3p", 1, undefined], ["3p", 2, undefined], ["6p", 1, undefined]] as const) {
      const query = cycle === undefined ? "" : `?cycle=${cycle}`;
      const res = await admin(`${ann.id}/matrix/${program}/${level}${query}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(await m.matrix(ann, program, level, cycle));
    }
    expect((await admin(`${ann.id}/matrix/3p/1?cycle=1`)).body.slots.map((s: { user: { name: string } }) => s.user.name)).toEqual(["Partner 1", "Partner 2", "Partner 3"]);
    expect(await admin(`${ann.id}/matrix/3p/1?cycle=3`)).toMatchObject({ status: 404, body: { code: "cycle_not_found" } });
    expect(await admin(`${ann.id}/matrix/3p/13`)).toMatchObject({ status: 404, body: { code: "level_not_found" } });
    expect(await admin(`${ann.id}/matrix/9p/1`)).toMatchObject({ status: 404, body: { code: "not_found" } });
  });

  test("a page or limit that is not a whole number in range, or a filter the member's list refuses, is 400 validation", async () => {
    for (const list of ["transactions", "missed", "requests", "partners", "audit"]) {
      for (const query of ["?page=0", "?page=abc", "?page=1.5", "?limit=0", "?limit=101", "?limit=ten"]) {
        const res = await admin(`${ann.id}/${list}${query}`);
        expect({ list, query, status: res.status, code: res.body.code }).toEqual({ list, query, status: 400, code: "validation" });
      }
    }
    for (const path of ["transactions?kind=nothing", "transactions?from=2026-02-30", "missed?program=9p", "requests?type=gift", "matrix/3p/1?cycle=0"]) {
      expect({ path, ...(await admin(`${ann.id}/${path}`)) }).toMatchObject({ path, status: 400, body: { code: "validation" } });
    }
  });

  test("a member gets 403 on the record and every list, their own included; no token, 401", async () => {
    for (const path of ["", "/transactions", "/missed", "/requests", "/partners", "/audit", "/matrix/3p/1"]) {
      for (const token of [ann.token, sam.token]) {
        expect({ path, ...(await h.call("GET", `/api/admin/users/${ann.id}${path}`, { token })) }).toMatchObject({ path, status: 403 });
      }
      expect({ path, status: (await h.call("GET", `/api/admin/users/${ann.id}${path}`)).status }).toEqual({ path, status: 401 });
    }
  });
});
