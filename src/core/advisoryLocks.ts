/**
 * The keys of the database's advisory locks, in one place so that no two uses share one. Each is
 * an arbitrary number, the same in every process. Postgres keeps the one-key (bigint) and the
 * two-key (int, int) forms apart; a two-key lock's first key names its use, its second the thing
 * locked.
 */
export const ADVISORY_LOCKS = {
  /** One key: the chains, shared by sign-ups and deletions, taken alone by a handover (teams.ts). */
  chains: 7_401_230_117,
  /** First of two keys: a canonical transaction ID, checked or claimed (chain/requests.ts lockTxHash). */
  txHash: 740_123_019,
  /** First of two keys: a member's notifications, their ids handed out in commit order (notifications.ts). */
  notifications: 740_123_021,
} as const;
