import toast from "react-hot-toast";
import { MIN_WITHDRAWAL, WITHDRAWAL_FEE_PERCENT, WITHDRAWAL_METHODS } from "../../../shared/constants";
import { MSG } from "../../../shared/messages";
import { formatPercent } from "../../../shared/money";
import { withdrawSchema } from "../../../shared/schemas";
import { AmountInput, Field } from "../../components/Field";
import { Money } from "../../components/Money";
import { availableBalance, useMe } from "../../lib/me";
import { withToast } from "../../lib/serverMessage";
import { useSchemaForm } from "../../lib/useSchemaForm";
import { estimateWithdrawal } from "../../lib/withdrawalEstimate";
import { useCreateWithdrawal } from "./api/createWithdrawal";

/** The spec's default network comes first. */
const EMPTY = { accountType: WITHDRAWAL_METHODS[0], accountNumber: "", amount: "" };
const FEE = formatPercent(WITHDRAWAL_FEE_PERCENT);

/** The withdrawal request, checked against the available balance before it is sent. */
export function WithdrawForm() {
  const { user } = useMe();
  const available = user ? availableBalance(user) : null;
  // The balance is the one rule the payload's schema cannot know; the server checks it again.
  const { values, errors, set, submit, reset } = useSchemaForm(withdrawSchema, EMPTY, {
    check: (_values, data) => (data && available !== null && data.amount > available ? { amount: MSG.exceedsAvailable } : {}),
  });
  const withdraw = useCreateWithdrawal();
  const estimate = estimateWithdrawal(values.amount);

  const onSubmit = submit(async (data) => {
    if (available === null) {
      toast.error("User data not loaded yet.");
      return;
    }
    const texts = { loading: "Submitting withdrawal request...", success: MSG.withdrawalSubmitted, failure: "Submission failed." };
    if (await withToast(texts, () => withdraw.submit(data))) reset();
  });

  return (
    // noValidate: our messages (the spec's) instead of the browser's; the attributes stay for keyboards.
    <form noValidate onSubmit={onSubmit} className="card flex flex-col gap-4" aria-labelledby="withdraw-form-title">
      <h2 id="withdraw-form-title" className="card-title">
        Request a withdrawal
      </h2>
      <p className="muted text-sm">
        Available balance: {available === null ? "…" : <Money value={available} className="font-semibold text-figure-green" />}
      </p>
      <Field label="Withdrawal method" error={errors.accountType}>
        {(a11y) => (
          <select {...a11y} className="input" value={values.accountType} onChange={set("accountType")}>
            {WITHDRAWAL_METHODS.map((method) => (
              <option key={method} value={method}>
                {method}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Wallet address" error={errors.accountNumber} hint="Double-check it: payouts cannot be reversed.">
        {(a11y) => <input {...a11y} className="input font-mono" required autoComplete="off" value={values.accountNumber} onChange={set("accountNumber")} />}
      </Field>
      <Field label="Amount (USDT)" error={errors.amount}>
        {(a11y) => <AmountInput {...a11y} min={MIN_WITHDRAWAL} max={available ?? undefined} value={values.amount} onChange={set("amount")} />}
      </Field>
      <p className="muted text-sm" aria-live="polite" data-testid="withdraw-estimate">
        {estimate ? (
          <>
            You will receive about <Money value={estimate.receive} className="font-semibold text-fg" /> after the {FEE} fee (
            <Money value={estimate.fee} />
            ); the full amount of <Money value={estimate.amount} /> is deducted from your balance.
          </>
        ) : (
          `An ${FEE} fee is taken from each withdrawal; the full amount is deducted from your balance.`
        )}
      </p>
      <button type="submit" className="btn btn-primary focus-ring" disabled={withdraw.isPending}>
        {withdraw.isPending ? "Submitting..." : "Submit withdrawal"}
      </button>
    </form>
  );
}
