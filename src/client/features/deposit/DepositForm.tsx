import { MIN_DEPOSIT } from "../../../shared/constants";
import { MSG } from "../../../shared/messages";
import { depositSchema } from "../../../shared/schemas";
import { AmountInput, Field } from "../../components/Field";
import { withToast } from "../../lib/serverMessage";
import { useSchemaForm } from "../../lib/useSchemaForm";
import { useCreateDeposit } from "./api/createDeposit";

const EMPTY = { address: "", transactionId: "", amount: "" };

/**
 * The deposit request. noValidate: the browser's own bubbles would pre-empt our messages and
 * differ between browsers; the shared schema checks instead, and the attributes stay for
 * keyboards and assistive tech.
 */
export function DepositForm() {
  const { values, errors, set, submit, reset } = useSchemaForm(depositSchema, EMPTY);
  const deposit = useCreateDeposit();

  const onSubmit = submit(async (data) => {
    const texts = { loading: "Submitting deposit request...", success: MSG.depositSubmitted, failure: "Submission failed." };
    if (await withToast(texts, () => deposit.submit(data))) reset();
  });

  return (
    <form noValidate onSubmit={onSubmit} className="card flex flex-col gap-4" aria-labelledby="deposit-form-title">
      <h2 id="deposit-form-title" className="card-title">
        Submit your deposit
      </h2>
      <Field label="Your wallet address" error={errors.address} hint="The address you sent the USDT from.">
        {(a11y) => <input {...a11y} className="input" required autoComplete="off" value={values.address} onChange={set("address")} />}
      </Field>
      <Field label="Transaction ID" error={errors.transactionId} hint="The transaction hash shown by your wallet.">
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
