import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client";
import { STATEMENT_PAGE_SIZE, type RequestStatus, type RequestType } from "../shared/constants";
import { pageCount } from "./util";
import type { Network } from "../shared/chain";
import { displayedTxHash } from "./chain/requests";
import { withdrawalFee } from "../shared/money";
import { MEMBER_CANCELLED } from "./wallet";

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
  to_address: string | null;
  /** A transfer still confirming: blocks from its own to the latest seen, both counted. */
  seen: number | null;
  below_minimum: boolean;
  chain_amount: string | null;
  address: string;
  cancelled: boolean;
}

/**
 * A page (`limit` rows) of the member's own deposit and withdrawal requests (or of one `type`), in every state, newest first
 * (created_at, then id): with the admin's reason, when it was decided, the network of a
 * withdrawal and the fee of an accepted one, the network and the transaction ID (a deposit's, or
 * the payout's of a withdrawal once the admin recorded it). Transfers to the member's own deposit
 * addresses are deposits too: recorded ones with the address, and those still short of their
 * confirmations (confirming_transfers) as pending, with how many they have of `required`.
 *
 * Each table is read newest-first through its (user_id, created_at) index and cut at the page's
 * end, then they are merged, like the statement's two sides: a long history is never sorted
 * in full.
 */
export async function requestsOf(
  db: Db,
  userId: string,
  page: number,
  type: RequestType | undefined,
  required: (network: Network) => number,
  limit = STATEMENT_PAGE_SIZE,
) {
  const deposits = type !== "withdrawal";
  const withdrawals = type !== "deposit";
  const offset = (page - 1) * limit;
  const window = offset + limit;
  const rows = rowsOf<RequestRow>(
    await db.execute(sql`
      SELECT r.id, r.type, r.amount::text AS amount, r.status, r.reason, r.created_at, r.decided_at, r.method, r.fee::text AS fee,
             r.network, r.transaction_id, r.to_address, r.seen::int AS seen, r.below_minimum, r.chain_amount, r.address, r.cancelled
      FROM (
        (SELECT c.network || ':' || c.tx_hash || ':' || c.log_index AS id, 'deposit' AS type, c.amount, 'pending' AS status, NULL::text AS reason,
                c.created_at, NULL::timestamptz AS decided_at, NULL::text AS method, NULL::bigint AS fee, c.network,
                ${displayedTxHash(sql`c.network`, sql`c.tx_hash`)} AS transaction_id, c.to_address,
                greatest(w.head_block - c.block_number + 1, 0) AS seen, false AS below_minimum, c.chain_amount,
                c.from_address AS address, false AS cancelled
         FROM confirming_transfers c JOIN chain_watch w ON w.network = c.network
         WHERE c.user_id = ${userId} AND ${deposits} ORDER BY c.created_at DESC LIMIT ${window})
        UNION ALL
        (SELECT id, 'deposit', amount, status, reason, created_at, decided_at, NULL, NULL,
                network, coalesce(${displayedTxHash(sql`network`, sql`tx_hash`)}, transaction_id), to_address,
                NULL, coalesce(chain_evidence->>'verdict' = 'below_minimum', false), chain_amount, address, false
         FROM deposits WHERE user_id = ${userId} AND ${deposits} ORDER BY created_at DESC, id DESC LIMIT ${window})
        UNION ALL
        (SELECT id, 'withdrawal', amount, status, reason, created_at, decided_at, account_type,
                CASE WHEN status = 'accepted' THEN fee END,
                CASE WHEN account_type LIKE '%BEP20' THEN 'BEP20' ELSE 'TRC20' END,
                CASE WHEN payout_tx_hash IS NULL THEN NULL WHEN account_type LIKE '%BEP20' THEN '0x' || payout_tx_hash ELSE payout_tx_hash END,
                NULL, NULL, false, NULL, account_number, decided_by IS NOT DISTINCT FROM ${MEMBER_CANCELLED}
         FROM withdrawals WHERE user_id = ${userId} AND ${withdrawals} ORDER BY created_at DESC, id DESC LIMIT ${window})
      ) r
      ORDER BY r.created_at DESC, r.id DESC
      LIMIT ${limit} OFFSET ${offset}`),
  );
  const [count] = rowsOf<{ n: string }>(
    await db.execute(sql`SELECT ((SELECT count(*) FROM deposits WHERE user_id = ${userId} AND ${deposits})
                               + (SELECT count(*) FROM confirming_transfers WHERE user_id = ${userId} AND ${deposits})
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
      toAddress: r.to_address,
      confirmations: r.seen === null ? null : { seen: Number(r.seen), required: required(r.network) },
      belowMinimum: r.below_minimum,
      chainAmount: r.chain_amount,
      address: r.address,
      net: r.type !== "withdrawal" || r.status === "declined" ? null : BigInt(r.amount) - (r.fee === null ? withdrawalFee(BigInt(r.amount)) : BigInt(r.fee)),
      cancelled: r.cancelled,
    })),
    page,
    totalPages: pageCount(Number(count?.n ?? 0), limit),
    total: Number(count?.n ?? 0),
  };
}
