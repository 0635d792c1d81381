import { describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { transfers } from "../../db/schema";
import { randomBep20Address, randomTronAddress, randomTxId, TRON_SENDER } from "../../testing/chainIds";
import { withHarness, type Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";

let h: Harness;
useMoneyHarness((made) => (h = made));

const submit = (token: string, body: Record<string, unknown>) => h.call("POST", "/api/user/deposit", { token, body });
/** A TRC20 transaction ID: 64 hex characters. */
const txId = randomTxId;

describe("POST /api/user/deposit", () => {
  test("POST /api/user/deposit creates a pending request and credits nothing yet", async () => {
    const user = await h.signUp();
    const transactionId = txId();
    const res = await submit(user.token, { address: TRON_SENDER, transactionId, amount: "12.50" });
    expect(res.status).toBe(201);
    expect(res.body.msg).toBe("Deposit request submitted successfully. It will be credited once an admin approves it.");
    const list = await h.call("GET", `/api/admin/deposits?search=${transactionId}`, { token: h.adminToken });
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ userEmail: user.email, amount: 12.5, address: TRON_SENDER, transactionId, status: "pending", network: "TRC20" });
    expect(typeof list.body[0]._id).toBe("string");
    expect(Number.isNaN(Date.parse(list.body[0].createdAt))).toBe(false);
    expect(await h.me(user.token)).toMatchObject({ balance: 0, pendingWithdrawalsTotal: 0 });
    await h.checkLedger();
  });

  test("POST /api/user/deposit refuses amounts that are not positive dollars with at most 2 decimals", async () => {
    const user = await h.signUp();
    const cases: [unknown, string][] = [
      [12.345, "Amount must have at most 2 decimal places."],
      ["1.001", "Amount must have at most 2 decimal places."],
      [0, "Please enter a valid positive amount."],
      [-10, "Please enter a valid positive amount."],
      ["-10", "Please enter a valid positive amount."],
      ["ten", "Amount must be a number."],
      ["Infinity", "Amount must be a number."],
      [0.5, "The minimum deposit is 1 USDT."],
      [undefined, "Amount is required."],
    ];
    for (const [amount, msg] of cases) {
      const res = await submit(user.token, { address: TRON_SENDER, transactionId: txId(), amount });
      expect({ amount, status: res.status, body: res.body }).toEqual({ amount, status: 400, body: { msg, code: "validation" } });
    }
    const mine = await h.call("GET", `/api/admin/deposits?search=${encodeURIComponent(user.email)}`, { token: h.adminToken });
    expect(mine.body).toEqual([]);
  });

  test("POST /api/user/deposit refuses a missing address or transaction ID", async () => {
    const user = await h.signUp();
    expect(await submit(user.token, { transactionId: txId(), amount: 5 })).toMatchObject({ status: 400, body: { msg: "Wallet address is required." } });
    expect(await submit(user.token, { address: TRON_SENDER, transactionId: "  ", amount: 5 })).toMatchObject({
      status: 400,
      body: { msg: "Transaction ID is required." },
    });
  });

  test("POST /api/user/deposit refuses a transaction ID already pending or accepted, and allows it again once declined", async () => {
    const alice = await h.signUp();
    const bob = await h.signUp();
    const transactionId = txId();
    const duplicate = { status: 400, body: { msg: "This transaction ID has already been submitted.", code: "duplicate_transaction" } };

    const first = await h.deposit(alice.token, 20, { transactionId });
    expect(await submit(bob.token, { address: TRON_SENDER, transactionId, amount: 20 })).toMatchObject(duplicate);
    expect(await submit(alice.token, { address: TRON_SENDER, transactionId: ` ${transactionId} `, amount: 20 })).toMatchObject(duplicate);

    expect((await h.decide("deposits", first, "declined")).status).toBe(200);
    const second = await h.deposit(bob.token, 20, { transactionId });
    expect(await submit(alice.token, { address: TRON_SENDER, transactionId, amount: 20 })).toMatchObject(duplicate);

    expect((await h.decide("deposits", second, "accepted")).status).toBe(200);
    expect(await submit(alice.token, { address: TRON_SENDER, transactionId, amount: 20 })).toMatchObject(duplicate);
    expect((await h.me(bob.token)).balance).toBe(20);
    expect((await h.me(alice.token)).balance).toBe(0);
    await h.checkLedger();
  });
});

describe("POST /api/user/deposit transaction IDs", () => {
  test("POST /api/user/deposit treats transaction IDs that differ only in letter case as the same transaction", async () => {
    const user = await h.signUp();
    const transactionId = txId().toUpperCase();
    expect((await submit(user.token, { address: TRON_SENDER, transactionId, amount: 5 })).status).toBe(201);
    expect(await submit(user.token, { address: TRON_SENDER, transactionId: transactionId.toLowerCase(), amount: 5 })).toMatchObject({
      status: 400,
      body: { msg: "This transaction ID has already been submitted.", code: "duplicate_transaction" },
    });
  });
});

describe("POST /api/user/deposit: one transaction, whatever the network", () => {
  const duplicate = { status: 400, body: { msg: "This transaction ID has already been submitted.", code: "duplicate_transaction" } };

  test("the same hash claimed as a TRC20 ID and as a BEP20 ID (0x) is one transaction: the second claim is refused, and it is credited once", async () => {
    const alice = await h.signUp();
    const bob = await h.signUp();
    const hash = txId();
    const first = await h.deposit(alice.token, 100, { network: "TRC20", transactionId: hash });
    expect(await submit(bob.token, { network: "BEP20", address: randomBep20Address(), transactionId: `0x${hash.toUpperCase()}`, amount: 100 })).toMatchObject(duplicate);
    // And the other way round.
    const other = txId();
    await h.deposit(bob.token, 100, { network: "BEP20", address: randomBep20Address(), transactionId: `0x${other}` });
    expect(await submit(alice.token, { network: "TRC20", address: TRON_SENDER, transactionId: other, amount: 100 })).toMatchObject(duplicate);
    // Accepted, it still holds the transaction on every network; declined, it frees it.
    expect((await h.decide("deposits", first, "accepted")).status).toBe(200);
    expect(await submit(bob.token, { network: "BEP20", address: randomBep20Address(), transactionId: `0x${hash}`, amount: 100 })).toMatchObject(duplicate);
    expect((await h.me(alice.token)).balance + (await h.me(bob.token)).balance).toBe(100);
    const [pending] = (await h.call("GET", `/api/admin/deposits?status=pending&search=${encodeURIComponent(bob.email)}`, { token: h.adminToken })).body;
    expect((await h.decide("deposits", pending._id, "declined")).status).toBe(200);
    expect((await submit(alice.token, { network: "TRC20", address: TRON_SENDER, transactionId: other, amount: 100 })).status).toBe(201);
    await h.checkLedger();
  });

  test("a withdrawal's payout transaction, shown to the member, cannot be claimed as a deposit, on either network", async () => {
    const member = await h.signUp();
    await h.fund(member.token, 50);
    const withdrawal = await h.withdraw(member.token, 50, { accountNumber: randomTronAddress() });
    const payout = txId();
    expect((await h.call("PUT", `/api/admin/withdrawals/${withdrawal}`, { token: h.adminToken, body: { status: "accepted", transactionId: payout } })).status).toBe(200);
    expect(await submit(member.token, { address: TRON_SENDER, transactionId: payout, amount: 46 })).toMatchObject(duplicate);
    expect(await submit(member.token, { network: "BEP20", address: randomBep20Address(), transactionId: `0x${payout}`, amount: 46 })).toMatchObject(duplicate);
    expect((await h.me(member.token)).balance).toBe(0);
    await h.checkLedger();
  });
});

describe("PUT /api/admin/deposits/{id}", () => {
  test("PUT /api/admin/deposits/{id} accepted credits the user from outside, once", async () => {
    const user = await h.signUp();
    const id = await h.deposit(user.token, "25.75");
    const externalBefore = (await h.account("external")).balance;
    const res = await h.decide("deposits", id, "accepted");
    expect(res).toMatchObject({ status: 200, body: { msg: "Request successfully accepted." } });
    expect(await h.me(user.token)).toMatchObject({ balance: 25.75, pendingWithdrawalsTotal: 0 });
    expect((await h.account("external")).balance).toBe(externalBefore - 2575n);
    const moves = await h.db.select().from(transfers).where(eq(transfers.requestId, id));
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({ fromAccount: "external", toAccount: user.id, amount: 2575n, kind: "deposit" });
    const [row] = (await h.call("GET", `/api/admin/deposits?search=${encodeURIComponent(user.email)}`, { token: h.adminToken })).body;
    expect(row).toMatchObject({ _id: id, status: "accepted" });
    await h.checkLedger();
  });

  test("PUT /api/admin/deposits/{id} declined moves nothing", async () => {
    const user = await h.signUp();
    const id = await h.deposit(user.token, 40);
    expect(await h.decide("deposits", id, "declined")).toMatchObject({ status: 200, body: { msg: "Request successfully declined." } });
    expect((await h.me(user.token)).balance).toBe(0);
    expect(await h.db.select().from(transfers).where(eq(transfers.requestId, id))).toEqual([]);
    await h.checkLedger();
  });

  test("PUT /api/admin/deposits/{id} answers 409 for a request already decided, and moves nothing", async () => {
    const user = await h.signUp();
    const accepted = await h.deposit(user.token, 10);
    const declined = await h.deposit(user.token, 15);
    await h.decide("deposits", accepted, "accepted");
    await h.decide("deposits", declined, "declined");
    const processed = { status: 409, body: { msg: "This request has already been processed.", code: "already_processed" } };
    for (const [id, status] of [
      [accepted, "accepted"],
      [accepted, "declined"],
      [declined, "accepted"],
      [declined, "declined"],
    ] as const) {
      const res = await h.decide("deposits", id, status);
      expect({ status: res.status, body: res.body }).toEqual(processed);
    }
    expect((await h.me(user.token)).balance).toBe(10);
    const rows = (await h.call("GET", `/api/admin/deposits?search=${encodeURIComponent(user.email)}`, { token: h.adminToken })).body;
    expect(rows.map((r: { status: string }) => r.status)).toEqual(["declined", "accepted"]);
    await h.checkLedger();
  });

  test("PUT /api/admin/deposits/{id} answers 404 for an unknown request and 400 for a status other than accepted or declined", async () => {
    const user = await h.signUp();
    const id = await h.deposit(user.token, 10);
    expect(await h.decide("deposits", "no-such-request", "accepted")).toMatchObject({ status: 404, body: { msg: "Request not found.", code: "request_not_found" } });
    for (const status of ["pending", "approved", undefined]) {
      expect(await h.decide("deposits", id, status as string)).toMatchObject({ status: 400, body: { msg: "Status must be accepted or declined." } });
    }
    // A withdrawal route does not decide a deposit.
    expect(await h.decide("withdrawals", id, "accepted")).toMatchObject({ status: 404, body: { msg: "Request not found.", code: "request_not_found" } });
    expect((await h.me(user.token)).balance).toBe(0);
    await h.checkLedger();
  });
});

describe("GET /api/admin/deposits", () => {
  test("GET /api/admin/deposits lists every request newest first, filtered by status and by search text", async () => {
    await withHarness(async (own) => {
      const ann = await own.signUp({ name: "Ann Depositor", email: "ann.dep@test.local" });
      const ben = await own.signUp({ name: "Ben Depositor", email: "ben.dep@test.local" });
      const benWallet = randomTronAddress();
      const benTx = txId();
      const a1 = await own.deposit(ann.token, 10);
      const b1 = await own.deposit(ben.token, 20, { transactionId: benTx, address: benWallet });
      const a2 = await own.deposit(ann.token, 30);
      await own.decide("deposits", a1, "accepted");
      await own.decide("deposits", b1, "declined");

      const ids = async (query: string) =>
        (await own.call("GET", `/api/admin/deposits${query}`, { token: own.adminToken })).body.map((r: { _id: string }) => r._id);
      expect(await ids("")).toEqual([a2, b1, a1]);
      expect(await ids("?status=pending")).toEqual([a2]);
      expect(await ids("?status=accepted")).toEqual([a1]);
      expect(await ids("?status=declined")).toEqual([b1]);
      expect(await ids("?search=ANN.DEP")).toEqual([a2, a1]);
      expect(await ids(`?search=${benTx.slice(10, 30).toUpperCase()}`)).toEqual([b1]);
      expect(await ids(`?search=${benWallet}`)).toEqual([b1]);
      expect(await ids("?search=Depositor&status=pending")).toEqual([a2]);
      expect(await ids("?search=nobody-matches")).toEqual([]);
      expect(await ids("?search=")).toEqual([a2, b1, a1]);
      expect(await own.call("GET", "/api/admin/deposits?status=maybe", { token: own.adminToken })).toMatchObject({ status: 400 });
    });
  });

  test("GET /api/admin/deposits?status=pending pages through every pending request, however many, the oldest too, with the total in X-Total-Count", async () => {
    const user = await h.signUp();
    const tag = `bulk${crypto.randomUUID().slice(0, 8)}`;
    // Written straight into the table: the API keeps a member at 10 pending.
    await h.db.execute(sql`
      INSERT INTO deposits (id, user_id, amount, address, transaction_id, status, created_at)
      SELECT ${tag} || '-' || g, ${user.id}, 100, 'TBulk', ${tag} || '-tx-' || g, 'pending', now() - g * interval '1 second'
      FROM generate_series(1, 600) AS g`);
    const page = (n: number) => h.call("GET", `/api/admin/deposits?status=pending&search=${tag}&limit=100&page=${n}`, { token: h.adminToken });
    const seen: string[] = [];
    for (let n = 1; n <= 7; n++) {
      const res = await page(n);
      expect([res.status, res.headers.get("X-Total-Count")]).toEqual([200, "600"]);
      expect(res.body).toHaveLength(n <= 6 ? 100 : 0);
      seen.push(...res.body.map((r: { _id: string }) => r._id));
    }
    expect(seen).toEqual(Array.from({ length: 600 }, (_, i) => `${tag}-${i + 1}`));
  });

  test("GET /api/admin/deposits answers 50 a page by default, the total in X-Total-Count: 120 requests are 50, 50 and 20", async () => {
    await withHarness(async (own) => {
      const members = await Promise.all(Array.from({ length: 12 }, () => own.signUp()));
      for (const member of members) {
        for (let i = 0; i < 10; i++) {
          // A real TRON address and a 64-hex transaction ID: well-formed before and after on-chain IDs.
          const transactionId = (crypto.randomUUID() + crypto.randomUUID()).replaceAll("-", "");
          const body = { address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", transactionId, amount: 1 + i };
          const res = await own.call("POST", "/api/user/deposit", { token: member.token, body });
          expect(res.status).toBe(201);
        }
      }
      const list = (query: string) => own.call("GET", `/api/admin/deposits${query}`, { token: own.adminToken });
      const first = await list("");
      expect([first.status, first.body.length, first.headers.get("X-Total-Count")]).toEqual([200, 50, "120"]);
      expect(Array.isArray(first.body)).toBe(true); // still a bare array, as the earlier client reads it
      const [second, third, fourth] = await Promise.all([list("?page=2"), list("?page=3"), list("?page=4")]);
      expect([second.body.length, third.body.length, fourth.body.length]).toEqual([50, 20, 0]);
      expect([third.headers.get("X-Total-Count"), fourth.headers.get("X-Total-Count")]).toEqual(["120", "120"]);
      const ids = [...first.body, ...second.body, ...third.body].map((r: { _id: string }) => r._id);
      expect(new Set(ids).size).toBe(120);
      // Newest first across the pages.
      const times = [...first.body, ...second.body, ...third.body].map((r: { createdAt: string }) => Date.parse(r.createdAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      // limit: at most 100; the header counts what the filters keep.
      const hundred = await list("?limit=100&status=pending");
      expect([hundred.body.length, hundred.headers.get("X-Total-Count")]).toEqual([100, "120"]);
      expect((await list("?status=accepted")).headers.get("X-Total-Count")).toBe("0");
      expect((await list(`?search=${encodeURIComponent(members[0]!.email)}`)).headers.get("X-Total-Count")).toBe("10");
      for (const bad of ["?limit=101", "?limit=0", "?page=0", "?page=1.5", "?limit=x"]) {
        expect({ bad, status: (await list(bad)).status }).toEqual({ bad, status: 400 });
      }
      expect((await list("?limit=101")).body).toEqual({ msg: "Limit must be between 1 and 100.", code: "validation" });
    });
  });

  test("GET /api/admin/deposits?search treats % and _ as plain characters", async () => {
    // Transaction IDs and addresses hold neither: the names do.
    const tag = crypto.randomUUID().slice(0, 8);
    const plain = await h.deposit((await h.signUp({ name: `Plain ${tag}`, email: `plain-${tag}@test.local` })).token, 10);
    const odd = await h.deposit((await h.signUp({ name: `Odd_100%_${tag}`, email: `odd${tag}@test.local` })).token, 10);
    const search = async (text: string) =>
      (await h.call("GET", `/api/admin/deposits?search=${encodeURIComponent(text)}`, { token: h.adminToken })).body.map((r: { _id: string }) => r._id);
    expect(await search("%")).toEqual([odd]);
    expect(await search("_")).toEqual([odd]);
    expect(await search("100%_")).toEqual([odd]);
    expect(await search("\\")).toEqual([]);
    expect(await search(`plain-${tag}`)).toEqual([plain]);
  });
});

describe("refusals of a deposit name the field they are about", () => {
  test("an ID already claimed names transactionId; a sender address whose checksum fails names address", async () => {
    const user = await h.signUp();
    const transactionId = txId();
    await h.deposit(user.token, 10, { transactionId });
    expect((await submit(user.token, { address: TRON_SENDER, transactionId, amount: 10 })).body).toEqual({
      msg: "This transaction ID has already been submitted.",
      code: "duplicate_transaction",
      field: "transactionId",
    });
    const broken = `${TRON_SENDER.slice(0, -1)}${TRON_SENDER.endsWith("a") ? "b" : "a"}`;
    const res = await submit(user.token, { address: broken, transactionId: txId(), amount: 10 });
    expect(res.body).toEqual({ code: "validation", msg: "This TRC20 (TRON) address is not valid: its checksum does not match. Copy it again from your wallet.", field: "address" });
    await h.checkLedger();
  });
});
