import { and, asc, eq, sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "../../db/client";
import { chainWatch, depositAddresses } from "../../db/schema";
import { type Network, NETWORKS } from "../../shared/chain";
import type { Cents } from "../../shared/money";
import { formatDollars } from "../../shared/money";
import { recordAudit } from "../audit";
import { Refusal, refuse } from "../errors";
import { inTransaction } from "../tx";
import { lockCaller } from "../users";
import { type ChainSettings, hasOwnAddresses, type WatchedNetwork, watchedNetworks } from "./config";
import { clientFor } from "./verify";

/**
 * Members' own deposit addresses (docs/rules.md#own-deposit-addresses): given once per member and
 * network, from the network's next index, and what the operator needs to sweep them.
 */

export interface OwnAddress {
  network: Network;
  address: string;
  index: number;
  /** Confirmations a transfer to it needs before it is credited. */
  confirmations: number;
}

/**
 * Stops the start when a network's extended public key is not the one its members' addresses
 * came from: members would be shown new addresses while nothing watched their old ones.
 */
export async function checkAddressKeys(db: Db, chain: ChainSettings): Promise<void> {
  for (const settings of watchedNetworks(chain)) {
    const [row] = await db
      .insert(chainWatch)
      .values({ network: settings.network, xpub: settings.addressKey.xpub })
      .onConflictDoUpdate({ target: chainWatch.network, set: { network: sql`excluded.network` } })
      .returning({ xpub: chainWatch.xpub, given: chainWatch.nextIndex });
    if (row && row.xpub !== settings.addressKey.xpub) {
      throw new Error(
        `${settings.network}_XPUB is not the key the ${row.given} members' ${settings.network} addresses came from (${row.xpub.slice(0, 16)}...): set that one again; with another key their addresses would no longer be watched`,
      );
    }
  }
}

/** The latest block, read when a network's watcher has no cursor yet: its first address starts the watch there. */
async function startWatch(db: Db, settings: WatchedNetwork, timeoutMs: number): Promise<void> {
  const [row] = await db.select({ nextBlock: chainWatch.nextBlock }).from(chainWatch).where(eq(chainWatch.network, settings.network));
  if (row?.nextBlock != null) return;
  let head: bigint;
  try {
    head = await clientFor(settings.rpcUrl, timeoutMs).getBlockNumber({ cacheTime: 0 });
  } catch {
    throw new Refusal("chain_unavailable", undefined, 30);
  }
  await db
    .insert(chainWatch)
    .values({ network: settings.network, xpub: settings.addressKey.xpub, nextBlock: head })
    .onConflictDoUpdate({ target: chainWatch.network, set: { nextBlock: sql`coalesce(${chainWatch.nextBlock}, excluded.next_block)` } });
}

/**
 * The member's own address on `network`, given at the first ask: the network's next index, taken
 * under its chain_watch row's lock, so two members never share one and none is skipped.
 */
export async function depositAddressOf(db: Db, userId: string, chain: ChainSettings, network: Network): Promise<OwnAddress> {
  const settings = chain.networks[network];
  if (!hasOwnAddresses(settings)) return refuse("deposit_address_unavailable");
  const answer = (row: { address: string; index: number }): OwnAddress => ({ network, address: row.address, index: row.index, confirmations: settings.confirmations });
  const given = async (q: Db | Tx) =>
    (
      await q
        .select({ address: depositAddresses.address, index: depositAddresses.index })
        .from(depositAddresses)
        .where(and(eq(depositAddresses.userId, userId), eq(depositAddresses.network, network)))
    )[0];
  const known = await given(db);
  if (known) return answer(known);
  await startWatch(db, settings, chain.rpcTimeoutMs);
  return inTransaction(db, async (tx) => {
    await lockCaller(tx, userId);
    const [watch] = await tx.select({ nextIndex: chainWatch.nextIndex }).from(chainWatch).where(eq(chainWatch.network, network)).for("update");
    if (!watch) throw new Error(`no chain_watch row for ${network}`);
    // Under the lock: an ask racing this one has committed its address, or not begun.
    const raced = await given(tx);
    if (raced) return answer(raced);
    const index = watch.nextIndex;
    const { address, hex } = settings.addressKey.derive(index);
    await tx.insert(depositAddresses).values({ network, index, userId, address, hex });
    await tx.update(chainWatch).set({ nextIndex: index + 1 }).where(eq(chainWatch.network, network));
    return answer({ address, index });
  });
}

/** A member's own addresses, for their record. */
export function addressesOf(db: Db, userId: string) {
  return db
    .select({ network: depositAddresses.network, index: depositAddresses.index, address: depositAddresses.address, createdAt: depositAddresses.createdAt, sweptAt: depositAddresses.sweptAt })
    .from(depositAddresses)
    .where(eq(depositAddresses.userId, userId))
    .orderBy(asc(depositAddresses.network));
}

export interface SweepItem {
  network: Network;
  index: number;
  address: string;
  userId: string;
  userName: string;
  /** USDT credited from transfers to it since it was last marked swept (or ever). */
  amount: Cents;
  transfers: number;
  sweptAt: Date | null;
  /** The latest of those transfers' credits: marking swept "through" it clears exactly these. */
  lastCreditedAt: Date;
}

/**
 * The operator's sweep list: per address, what was credited there since it was last marked
 * swept, largest first. Read-only help: the funds move with the operator's own wallet.
 */
export async function sweepList(db: Db): Promise<SweepItem[]> {
  const rows = rowsOf<{ network: Network; index: number; address: string; user_id: string; name: string; amount: string; transfers: string; swept_at: Date | string | null; last: Date | string }>(
    await db.execute(sql`
      SELECT a.network, a.index, a.address, a.user_id, u.name, sum(d.amount)::text AS amount, count(*)::text AS transfers, a.swept_at, max(d.decided_at) AS last
      FROM deposit_addresses a
      JOIN users u ON u.id = a.user_id
      JOIN deposits d ON d.network = a.network AND d.to_address = a.address AND d.status = 'accepted'
        AND (a.swept_at IS NULL OR d.decided_at > a.swept_at)
      GROUP BY a.network, a.index, a.address, a.user_id, u.name, a.swept_at
      ORDER BY sum(d.amount) DESC, a.network, a.index`),
  );
  return rows.map((r) => ({
    network: r.network,
    index: Number(r.index),
    address: r.address,
    userId: r.user_id,
    userName: r.name,
    amount: BigInt(r.amount),
    transfers: Number(r.transfers),
    sweptAt: r.swept_at === null ? null : new Date(r.swept_at),
    lastCreditedAt: new Date(r.last),
  }));
}

/**
 * Marks an address swept through `through` (default: now): credits up to then leave the sweep
 * list. Audited with what was cleared. An address that is not one of the network's is refused.
 */
export async function markSwept(tx: Tx, adminId: string, network: Network, index: number, through?: Date): Promise<{ cleared: Cents }> {
  if (!NETWORKS.includes(network)) return refuse("validation");
  const [row] = await tx
    .select({ address: depositAddresses.address, userId: depositAddresses.userId, sweptAt: depositAddresses.sweptAt })
    .from(depositAddresses)
    .where(and(eq(depositAddresses.network, network), eq(depositAddresses.index, index)))
    .for("update");
  if (!row) return refuse("not_found");
  const until = through ?? new Date();
  if (row.sweptAt && until <= row.sweptAt) return refuse("validation", "That address was already marked swept through a later time.");
  const [sum] = rowsOf<{ amount: string }>(
    await tx.execute(sql`
      SELECT coalesce(sum(amount), 0)::text AS amount FROM deposits
      WHERE network = ${network} AND to_address = ${row.address} AND status = 'accepted'
        AND decided_at <= ${until.toISOString()}::timestamptz ${row.sweptAt ? sql`AND decided_at > ${row.sweptAt.toISOString()}::timestamptz` : sql``}`),
  );
  const cleared = BigInt(sum?.amount ?? "0");
  await tx.update(depositAddresses).set({ sweptAt: until }).where(and(eq(depositAddresses.network, network), eq(depositAddresses.index, index)));
  await recordAudit(tx, {
    adminId,
    action: "address_swept",
    targetType: "deposit_address",
    targetId: `${network}:${index}`,
    before: { address: row.address, userId: row.userId, sweptAt: row.sweptAt?.toISOString() ?? null },
    after: { sweptAt: until.toISOString(), cleared: formatDollars(cleared) },
  });
  return { cleared };
}
