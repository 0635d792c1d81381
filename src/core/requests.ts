import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client";
import { STATEMENT_PAGE_SIZE, type RequestStatus, type RequestType } from "../shared/constants";
import { pageCount } from "./util";
import type { Network } from "../shared/chain";
import { displayedTxHash } from "./chain/requests";

interface RequestRow {
  id: string;
  type: RequestType;
  amount: string;
  status: RequestStatus;
  reason: string | null;
  created_at: Date | string;
  decided_at: Date | string | null;
  method: string | null;
  fee: string | null;
  network: Network;
  transaction_id: string | null;
}

/**
 * A page of the member's own deposit and withdrawal requests (or of one `type`), in every state, newest first
 * (created_at, then id): with the admin's reason, when it was decided, the network of a
 * withdrawal and the fee of an accepted one, the network and the transaction ID (a deposit's, or
 * the payout's of a withdrawal once the admin recorded it).
 *
 * Each table is read newest-first through its (user_id, created_at) index and cut at the page's
 * end, then the two are merged, like the statement's two sides: a long history is never sorted
 * in full.
 */
export async function requestsOf(db: Db, userId: string, page: number, type?: RequestType) {
  const deposits = type !== "withdrawal";
  const withdrawals = type !== "deposit";
  const offset = (page - 1) * STATEMENT_PAGE_SIZE;
  const window = offset + STATEMENT_PAGE_SIZE;
  const rows = rowsOf<RequestRow>(
    await db.execute(sql`
      SELECT r.id, r.type, r.amount::text AS amount, r.status, r.reason, r.created_at, r.decided_at, r.method, r.fee::text AS fee,
             r.network, r.transaction_id
      FROM (
        (SELECT id, 'deposit' AS type, amount, status, reason, created_at, decided_at, NULL::text AS method, NULL::bigint AS fee,
                network, coalesce(${displayedTxHash(sql`network`, sql`tx_hash`)}, transaction_id) AS transaction_id
         FROM deposits WHERE user_id = ${userId} AND ${deposits} ORDER BY created_at DESC, id DESC LIMIT ${window})
        UNION ALL
        (SELECT id, 'withdrawal', amount, status, reason, created_at, decided_at, account_type,
                CASE WHEN status = 'accepted' THEN fee END,
                CASE WHEN account_type LIKE '%BEP20' THEN 'BEP20' ELSE 'TRC20' END,
                CASE WHEN payout_tx_hash IS NULL THEN NULL WHEN account_type LIKE '%BEP20' THEN '0x' || payout_tx_hash ELSE payout_tx_hash END
         FROM withdrawals WHERE user_id = ${userId} AND ${withdrawals} ORDER BY created_at DESC, id DESC LIMIT ${window})
      ) r
      ORDER BY r.created_at DESC, r.id DESC
      LIMIT ${STATEMENT_PAGE_SIZE} OFFSET ${offset}`),
  );
  const [count] = rowsOf<{ n: string }>(
    await db.execute(sql`SELECT ((SELECT count(*) FROM deposits WHERE user_id = ${userId} AND ${deposits})
                               + (SELECT count(*) FROM withdrawals WHERE user_id = ${userId} AND ${withdrawals}))::text AS n`),
  );
  return {
    items: rows.map((r) => ({
      id: r.id,
      type: r.type,
      amount: BigInt(r.amount),
      status: r.status,
      reason: r.reason,
      createdAt: new Date(r.created_at),
      decidedAt: r.decided_at === null ? null : new Date(r.decided_at),
      method: r.method,
      fee: r.fee === null ? null : BigInt(r.fee),
      network: r.network,
      transactionId: r.transaction_id,
    })),
    page,
    totalPages: pageCount(Number(count?.n ?? 0), STATEMENT_PAGE_SIZE),
  };
}
