import { Hono } from "hono";
import { decideRequest, giftFromSystem, removeUser } from "../../core/admin";
import { listAudit } from "../../core/audit";
import { isVerified } from "../../core/chain/config";
import { addressesOf, markSwept, sweepList } from "../../core/chain/ownAddresses";
import { listUsers } from "../../core/users";
import { listDeposits, listWithdrawals } from "../../core/wallet";
import { TOTAL_COUNT_HEADER } from "../../shared/constants";
import { API } from "../../shared/contract";
import { MSG } from "../../shared/messages";
import { listBackups } from "../../db/backup";
import { takeBackup } from "../backups";
import type { AppEnv } from "../env";
import { reply } from "../reply";
import { idempotency, transact } from "../transact";
import { validate, validatePath } from "../validate";
import { depositAddressParam } from "../../shared/schemas";
import { formatUsdt } from "../../shared/money";

/** Admin-only routes. Behind requireUser and requireAdmin (/admin/*). */
export const adminRoutes = new Hono<AppEnv>()
  // A page of requests, still a bare array (what the earlier client reads); the total in a header.
  .get(API.deposits.path, validate("query", API.deposits.query), async (c) => {
    const { db, config } = c.get("deps");
    const { rows, total } = await listDeposits(db, c.req.valid("query"));
    c.header(TOTAL_COUNT_HEADER, String(total));
    // A request is looked at on chain only while its network is verified here: one whose network
    // was configured when it came and is not now waits for the admin, and says so.
    return reply(c, API.deposits, rows.map((row) => (row.checking && !isVerified(config.chain.networks[row.network]) ? { ...row, checking: false } : row)));
  })
  .get(API.withdrawals.path, validate("query", API.withdrawals.query), async (c) => {
    const { rows, total } = await listWithdrawals(c.get("deps").db, c.req.valid("query"));
    c.header(TOTAL_COUNT_HEADER, String(total));
    return reply(c, API.withdrawals, rows);
  })
  .put(API.decideDeposit.path, idempotency, validate("json", API.decideDeposit.body), (c) => {
    const { status, reason, transactionId } = c.req.valid("json");
    return transact(
      c,
      API.decideDeposit,
      (tx) => decideRequest(tx, c.get("user").id, "deposit", c.req.param("id"), status, reason, transactionId),
      () => ({ msg: MSG.requestDecided(status) }),
    );
  })
  .put(API.decideWithdrawal.path, idempotency, validate("json", API.decideWithdrawal.body), (c) => {
    const { status, reason, transactionId } = c.req.valid("json");
    return transact(
      c,
      API.decideWithdrawal,
      (tx) => decideRequest(tx, c.get("user").id, "withdrawal", c.req.param("id"), status, reason, transactionId),
      () => ({ msg: MSG.requestDecided(status) }),
    );
  })
  .get(API.users.path, validate("query", API.users.query), async (c) => {
    const { db, config } = c.get("deps");
    return reply(c, API.users, { ...(await listUsers(db, c.req.valid("query"))), adminGiftMax: config.adminGiftMax });
  })
  .delete(API.deleteUser.path, (c) =>
    transact(
      c,
      API.deleteUser,
      (tx) => removeUser(tx, c.get("user").id, c.req.param("id")),
      () => ({ msg: MSG.userDeleted }),
    ),
  )
  .post(API.adminGift.path, idempotency, validate("json", API.adminGift.body), (c) =>
    transact(
      c,
      API.adminGift,
      (tx) => giftFromSystem(tx, c.get("user").id, c.req.param("id"), c.req.valid("json").amount, c.get("deps").config.adminGiftMax),
      () => ({ msg: MSG.adminGiftSent }),
    ),
  )
  .get(API.audit.path, validate("query", API.audit.query), async (c) =>
    reply(c, API.audit, await listAudit(c.get("deps").db, c.req.valid("query").page)),
  )
  .get(API.userDepositAddresses.path, async (c) => reply(c, API.userDepositAddresses, await addressesOf(c.get("deps").db, c.req.param("id"))))
  .get(API.sweepList.path, async (c) => reply(c, API.sweepList, await sweepList(c.get("deps").db)))
  .post(API.markSwept.path, idempotency, validatePath(depositAddressParam), validate("json", API.markSwept.body), (c) => {
    const { network, index } = c.req.valid("param");
    const through = c.req.valid("json").through;
    return transact(
      c,
      API.markSwept,
      (tx) => markSwept(tx, c.get("user").id, network, index, through === undefined ? undefined : new Date(through)),
      ({ cleared }) => ({ msg: `Marked swept: ${formatUsdt(cleared)} cleared from the list.`, cleared }),
    );
  })
  .get(API.backups.path, (c) => reply(c, API.backups, listBackups(c.get("deps").config.backupDir)))
  .post(API.takeBackup.path, async (c) => reply(c, API.takeBackup, await takeBackup(c.get("deps"))));
