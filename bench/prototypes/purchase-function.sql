-- A prototype, not the product's code: the keyed purchase of bench/statements.ts (3P level 1 by a
-- funded leaf, paid to the first eligible upline) as one PL/pgSQL call, for
-- `bun bench/statements.ts --prototype bench/prototypes/purchase-function.sql`. It makes the same
-- reads, locks and writes as the activation and the money statement (the key's row, the buyer's
-- row shared, the level row, the walk up the chains with the frozen users passed, the receiver's
-- level row locked, both accounts in id order, the transfer, the placement, the owner's slots,
-- the notification and its member's lock, the live events' setting), each a statement of its own, so that
-- Postgres sets up only what runs. It handles the paid case only (it answers 'not the paid case'
-- or 'system' otherwise) and no missed earnings: enough to measure the common purchase
-- (bench/RESULTS.md#instructions-per-statement). Statements are separated by blank lines; none
-- holds one.

DROP FUNCTION IF EXISTS proto_purchase;

CREATE OR REPLACE FUNCTION proto_purchase(p_mark text, p_user text, p_key text, p_hash text, p_status smallint, p_body text,
  p_program text, p_level int, p_expected bigint, p_events text, p_note_text text) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  b record; v_cost bigint; v_current text; v_previous text; v_avail bigint;
  v_chain text; v_depth int; f record; lk record; v_passed text[]; v_alive boolean; v_refw text;
  v_transfer bigint; bal_from bigint; bal_to bigint; v_note bigint; v_first text; v_second text;
BEGIN
  IF current_setting('transaction_deferrable') <> p_mark THEN RETURN 'not in block'; END IF;
  PERFORM set_config('lock_timeout', '300ms', true);
  INSERT INTO idempotency_keys (user_id, key, request_hash, status, body) VALUES (p_user, p_key, p_hash, p_status, p_body) ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN RETURN 'key taken'; END IF;
  PERFORM set_config('lock_timeout', '0', true);
  SELECT id, chain_id, depth, name, referrer_id INTO b FROM users WHERE id = p_user AND deleted_at IS NULL FOR SHARE;
  IF NOT FOUND THEN RETURN 'bad_token'; END IF;
  SELECT cost INTO v_cost FROM program_levels WHERE program = p_program AND level = p_level;
  IF NOT FOUND THEN RETURN 'level_not_found'; END IF;
  SELECT status INTO v_current FROM user_levels WHERE user_id = p_user AND program = p_program AND level = p_level;
  IF v_current IS NOT NULL THEN RETURN 'level_already_active'; END IF;
  IF p_level > 1 THEN
    SELECT status INTO v_previous FROM user_levels WHERE user_id = p_user AND program = p_program AND level = p_level - 1;
    IF v_previous IS NULL THEN RETURN 'level_locked'; END IF;
  END IF;
  IF p_expected IS NOT NULL AND p_expected <> v_cost THEN RETURN 'price_changed'; END IF;
  SELECT balance - held INTO v_avail FROM accounts WHERE id = p_user;
  IF v_avail < v_cost THEN RETURN 'insufficient_balance'; END IF;
  INSERT INTO user_levels (user_id, program, level, status, chain_id, depth) VALUES (b.id, p_program, p_level, 'active', b.chain_id, b.depth) ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN RETURN 'level_already_active'; END IF;
  -- the walk: up the buyer's referrer's chain, then the chains above
  SELECT r.chain_id, r.depth INTO v_chain, v_depth FROM users r WHERE r.id = b.referrer_id;
  LOOP
    SELECT ul.user_id, ul.depth, ul.cycles, ul.slots INTO f FROM user_levels ul JOIN users e ON e.id = ul.user_id
      WHERE ul.program = p_program AND ul.level = p_level AND ul.status = 'active' AND ul.chain_id = v_chain AND ul.depth <= v_depth AND e.deleted_at IS NULL
      ORDER BY ul.depth DESC LIMIT 1;
    v_passed := v_passed || ARRAY(SELECT fz.user_id FROM user_levels fz JOIN users u ON u.id = fz.user_id AND u.deleted_at IS NULL
      WHERE fz.program = p_program AND fz.level = p_level AND fz.status = 'frozen' AND fz.chain_id = v_chain AND fz.depth <= v_depth
        AND fz.depth > coalesce(f.depth, -1) ORDER BY fz.depth DESC);
    EXIT WHEN f.user_id IS NOT NULL;
    SELECT r.chain_id, r.depth INTO v_chain, v_depth FROM users head JOIN users r ON r.id = head.referrer_id WHERE head.id = v_chain;
    IF NOT FOUND THEN RETURN 'system'; END IF;
  END LOOP;
  SELECT status, cycles, slots INTO lk FROM user_levels WHERE user_id = f.user_id AND program = p_program AND level = p_level FOR UPDATE;
  SELECT u.deleted_at IS NULL INTO v_alive FROM users u WHERE u.id = f.user_id FOR SHARE;
  SELECT r.id INTO v_refw FROM users r WHERE r.id = b.referrer_id AND r.deleted_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM user_levels rl WHERE rl.user_id = r.id AND rl.program = p_program AND rl.level = p_level);
  IF cardinality(lk.slots) + 1 >= 3 THEN RETURN 'not the paid case'; END IF;
  -- the money: the lower id first
  IF p_user < f.user_id THEN
    UPDATE accounts SET balance = balance - v_cost WHERE id = p_user AND (CASE WHEN kind = 'user' THEN balance - held >= v_cost ELSE true END) RETURNING balance INTO bal_from;
    UPDATE accounts SET balance = balance + v_cost WHERE id = f.user_id AND balance <= 10000000000000 - v_cost RETURNING balance INTO bal_to;
  ELSE
    UPDATE accounts SET balance = balance + v_cost WHERE id = f.user_id AND balance <= 10000000000000 - v_cost RETURNING balance INTO bal_to;
    UPDATE accounts SET balance = balance - v_cost WHERE id = p_user AND (CASE WHEN kind = 'user' THEN balance - held >= v_cost ELSE true END) RETURNING balance INTO bal_from;
  END IF;
  IF bal_from IS NULL OR bal_to IS NULL THEN RAISE EXCEPTION 'insufficient_balance'; END IF;
  INSERT INTO transfers (from_account, to_account, amount, kind, from_balance_after, to_balance_after, request_id, program, level)
    VALUES (p_user, f.user_id, v_cost, 'purchase', bal_from, bal_to, NULL, p_program, p_level) RETURNING id INTO v_transfer;
  PERFORM set_config('matrix.live_events', coalesce(current_setting('matrix.live_events', true), '') || p_events || chr(30), true);
  INSERT INTO placements (buyer_id, owner_id, program, level, slot, cycle, outcome, transfer_id, amount)
    VALUES (p_user, f.user_id, p_program, p_level, cardinality(lk.slots) + 1, lk.cycles + 1, 'paid', v_transfer, v_cost);
  UPDATE user_levels SET slots = slots || p_user WHERE user_id = f.user_id AND program = p_program AND level = p_level;
  IF NOT EXISTS (SELECT 1 FROM notification_settings s WHERE s.user_id = f.user_id AND 'slot_taken' = ANY (s.muted)) THEN
    PERFORM pg_advisory_xact_lock(740123021, hashtext(f.user_id));
    INSERT INTO notifications (user_id, kind, event_key, text, data)
      VALUES (f.user_id, 'slot_taken', 'slot:' || p_program || ':' || p_level || ':' || p_user, p_note_text,
        jsonb_build_object('program', p_program, 'level', p_level, 'slot', cardinality(lk.slots) + 1, 'outcome', 'paid'))
      ON CONFLICT (user_id, event_key) DO NOTHING RETURNING id INTO v_note;
    PERFORM set_config('matrix.live_events', coalesce(current_setting('matrix.live_events', true), '') || json_build_object('t', 'n', 'u', f.user_id, 'id', v_note::text)::text || chr(30), true);
  END IF;
  RETURN v_transfer::text;
END
$fn$
