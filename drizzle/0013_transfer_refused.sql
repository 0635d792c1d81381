-- A refused transfer fails its statement (src/core/ledger.ts): the refusal's code is the message,
-- so the transaction is aborted at once, and a transfer sent with the COMMIT, unread, can never
-- commit half an operation (src/core/tx.ts, sendWithCommit).
CREATE OR REPLACE FUNCTION transfer_refused(code text) RETURNS boolean AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = code, HINT = 'transfer refused';
END;
$$ LANGUAGE plpgsql;
