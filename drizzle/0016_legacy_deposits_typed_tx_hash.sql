-- The transaction a deposit request's typed text names, read loosely, for the requests from before
-- on-chain verification (docs/rules.md#deposits): Unicode NFKC, every space and invisible
-- character (JavaScript's \s and Unicode's format characters, Cf) dropped, lower case, no 0x;
-- null unless that is 64 hex. Migration 0008 read only trimmed text, and left an ID typed with a
-- zero-width space inside, say, without a canonical ID.
CREATE OR REPLACE FUNCTION typed_tx_hash(typed text) RETURNS text AS $$
  SELECT CASE WHEN folded ~ '^[0-9a-f]{64}$' THEN folded END
  FROM (
    SELECT regexp_replace(lower(regexp_replace(
      CASE WHEN current_setting('server_encoding') = 'UTF8' THEN normalize(typed, NFKC) ELSE typed END,
      '[\u0009-\u000d\u0020\u00a0\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u3000\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]', '', 'g')), '^0x', '') AS folded
  ) f
$$ LANGUAGE sql STABLE;--> statement-breakpoint
-- An accepted request of before 0008 that got no canonical ID was credited for the transaction
-- its text names, but the unique index of live requests could not see it: a later request for
-- that transaction was let in and credited again. Each transaction named by such requests now has
-- its claimant: an accepted one before a pending one, then the oldest.
CREATE TEMP TABLE legacy_claimants ON COMMIT DROP AS
  SELECT DISTINCT ON (network, hash) id, network, hash, status
  FROM (SELECT id, network, status, created_at, typed_tx_hash(transaction_id) AS hash FROM deposits WHERE tx_hash IS NULL AND status <> 'declined') named
  WHERE hash IS NOT NULL
  ORDER BY network, hash, status = 'accepted' DESC, created_at, id;--> statement-breakpoint
-- A pending request that holds a transaction an accepted one was credited for gives its canonical
-- ID up (and is no longer looked at on chain): accepting it is then refused as a duplicate, as
-- for any old request without one (adoptTypedTxHash).
UPDATE deposits d SET tx_hash = NULL, next_check_at = NULL
FROM legacy_claimants c
WHERE c.status = 'accepted' AND d.status = 'pending' AND d.network = c.network AND d.tx_hash = c.hash;--> statement-breakpoint
-- Each claimant takes the transaction's ID where no live request holds it (a request holding it
-- that was accepted too was credited before this release: nothing to take back here).
UPDATE deposits d SET tx_hash = c.hash
FROM legacy_claimants c
WHERE d.id = c.id AND NOT EXISTS (
  SELECT 1 FROM deposits h WHERE h.network = c.network AND h.tx_hash = c.hash AND h.status <> 'declined'
);
