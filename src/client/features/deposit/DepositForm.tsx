import { useEffect } from "react";
import { DEFAULT_NETWORK, type Network, networkName } from "../../../shared/chain";
import { MIN_DEPOSIT } from "../../../shared/constants";
import { MSG } from "../../../shared/messages";
import { depositSchema } from "../../../shared/schemas";
import { AmountInput, Field } from "../../components/Field";
import { failAtField, withToast } from "../../lib/serverMessage";
import { useSchemaForm } from "../../lib/useSchemaForm";
import { useCreateDeposit } from "./api/createDeposit";

const EMPTY = { address: "", transactionId: "", amount: "" };
/** The server's refusals about a field of the request, by the form's field names. */
const FIELDS = { address: "address", transactionId: "transactionId", amount: "amount" } as const;

/** What each network's IDs and addresses look like, for the hints. */
const SHAPES: Record<Network, { address: string; transactionId: string }> = {
  TRC20: { address: "starts with T", transactionId: "64 characters 0-9 and a-f, without 0x" },
  BEP20: { address: "starts with 0x", transactionId: "0x followed by 64 characters 0-9 and a-f" },
};

/**
 * The deposit request, on the network chosen above the form (the page keeps the choice). The
 * shared schema checks the transaction ID and the address as the server will, for that
 * network. noValidate: the browser's own bubbles would pre-empt our messages and differ between
 * browsers; the attributes stay for keyboards and assistive tech.
 */
export function DepositForm({ network = DEFAULT_NETWORK }: { network?: Network }) {
  const { values, setValues, errors, set, submit, reset, fail } = useSchemaForm(depositSchema, { ...EMPTY, network: network as string });
  const deposit = useCreateDeposit();

  // The network picked on the page is the one the request names.
  useEffect(() => setValues((current) => (current.network === network ? current : { ...current, network })), [network, setValues]);

  const onSubmit = submit(async (data) => {
    const texts = { loading: "Submitting deposit request...", success: MSG.depositSubmitted, failure: "Submission failed." };
    const { txHash: _canonical, ...request } = data;
    // An ID already claimed, an address whose checksum fails: said at that field.
    const atField = (error: unknown) => failAtField(error, fail, FIELDS);
    if (await withToast(texts, () => deposit.submit(request), atField)) {
      reset();
      setValues((current) => ({ ...current, network }));
    }
  });

  const shape = SHAPES[network];
  return (
    <form noValidate onSubmit={onSubmit} className="card flex flex-col gap-4" aria-labelledby="deposit-form-title">
      <h2 id="deposit-form-title" className="card-title">
        Submit your deposit
      </h2>
      <p className="muted m-0 text-sm">Network: {networkName(network)}</p>
      <Field label="Your wallet address" error={errors.address} hint={`The ${networkName(network)} address you sent the USDT from (${shape.address}).`}>
        {(a11y) => <input {...a11y} className="input" required autoComplete="off" value={values.address} onChange={set("address")} />}
      </Field>
      <Field label="Transaction ID" error={errors.transactionId} hint={`The transaction hash shown by your wallet: ${shape.transactionId}.`}>
        {(a11y) => (
          <input {...a11y} className="input font-mono" required autoComplete="off" value={values.transactionId} onChange={set("transactionId")} />
        )}
      </Field>
      <Field label="Amount (USDT)" error={errors.amount}>
        {(a11y) => <AmountInput {...a11y} min={MIN_DEPOSIT} value={values.amount} onChange={set("amount")} />}
      </Field>
      <button type="submit" className="btn btn-primary focus-ring" disabled={deposit.isPending}>
        {deposit.isPending ? "Submitting..." : "Submit deposit"}
      </button>
    </form>
  );
}
