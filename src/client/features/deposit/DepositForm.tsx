import type { FormEvent } from "react";
import { MIN_DEPOSIT } from "../../../shared/constants";
import { MSG } from "../../../shared/messages";
import { toDollars } from "../../../shared/money";
import { depositSchema } from "../../../shared/schemas";
import { Field } from "../../components/Field";
import { fieldErrors } from "../../lib/fieldErrors";
import { useFormValues } from "../../lib/useFormValues";
import { withToast } from "../../lib/serverMessage";
import { useCreateDeposit } from "./api/createDeposit";

type Values = { address: string; transactionId: string; amount: string };
const EMPTY: Values = { address: "", transactionId: "", amount: "" };

/**
 * The deposit request. noValidate: the browser's own bubbles would pre-empt our messages and
 * differ between browsers; the shared schema checks instead, and the attributes stay for
 * keyboards and assistive tech.
 */
export function DepositForm() {
  const { values, errors, setErrors, set, reset } = useFormValues(EMPTY);
  const deposit = useCreateDeposit();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = depositSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors<keyof Values>(parsed.error));
      return;
    }
    setErrors({});
    const texts = { loading: "Submitting deposit request...", success: MSG.depositSubmitted, failure: "Submission failed." };
    if (await withToast(texts, () => deposit.submit({ ...parsed.data, amount: toDollars(parsed.data.amount) }))) reset();
  }

  return (
    <form noValidate onSubmit={submit} className="card flex flex-col gap-4" aria-labelledby="deposit-form-title">
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
        {(a11y) => (
          <input
            {...a11y}
            className="input"
            type="number"
            inputMode="decimal"
            min={MIN_DEPOSIT}
            step="0.01"
            required
            value={values.amount}
            onChange={set("amount")}
          />
        )}
      </Field>
      <button type="submit" className="btn btn-primary focus-ring" disabled={deposit.isPending}>
        {deposit.isPending ? "Submitting..." : "Submit deposit"}
      </button>
    </form>
  );
}
