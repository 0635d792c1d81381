-- Why a transfer was refused is worked out here, by the function that raises it, rather than in
-- the transfer's statement (src/core/ledger.ts): the statement runs on every purchase, the
-- refusal seldom, and each look-up written into the statement was set up on every run.
-- `debit_refused`: the debit matched no row (a user short of money, or an operator account at its
-- floor); else the credit did (the payee at MAX_BALANCE). No row at all: no such account, a bug.
-- The one-argument transfer_refused of 0013 stays: a server of the release before, still running
-- while this one migrates (a rolling restart), calls it.
CREATE OR REPLACE FUNCTION transfer_refused(debit_refused boolean, from_id text, to_id text, insufficient text) RETURNS boolean AS $$
DECLARE
  code text;
BEGIN
  IF debit_refused THEN
    SELECT CASE WHEN kind = 'user' THEN insufficient ELSE 'balance_limit' END INTO code FROM accounts WHERE id = from_id;
  ELSE
    SELECT 'balance_limit' INTO code FROM accounts WHERE id = to_id;
  END IF;
  RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = coalesce(code, 'no_such_account'), HINT = 'transfer refused';
END;
$$ LANGUAGE plpgsql;
