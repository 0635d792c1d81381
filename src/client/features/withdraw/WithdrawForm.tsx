import type { FormEvent } from "react";
import toast from "react-hot-toast";
import { MIN_WITHDRAWAL, WITHDRAWAL_METHODS, type WithdrawalMethod } from "../../../shared/constants";
import { MSG } from "../../../shared/messages";
import { toDollars } from "../../../shared/money";
import { withdrawSchema } from "../../../shared/schemas";
import { Field } from "../../components/Field";
import { Money } from "../../components/Money";
import { fieldErrors } from "../../lib/fieldErrors";
import { useFormValues } from "../../lib/useFormValues";
import { availableBalance, useMe } from "../../lib/me";
import { withToast } from "../../lib/serverMessage";
import { useCreateWithdrawal } from "./api/createWithdrawal";
import { estimateWithdrawal } from "../../lib/withdrawalEstimate";

type Values = { accountType: WithdrawalMethod; accountNumber: string; amount: string };
const EMPTY: Values = { accountType: "USDT TRC20", accountNumber: "", amount: "" };

/** The withdrawal request, checked against the available balance before it is sent. */
export function WithdrawForm() {
  const { user } = useMe();
  const { values, errors, setErrors, set, reset } = useFormValues(EMPTY);
  const withdraw = useCreateWithdrawal();
  const available = user ? availableBalance(user) : null;
  const estimate = estimateWithdrawal(values.amount);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (available === null) {
      toast.error("User data not loaded yet.");
      return;
    }
    const parsed = withdrawSchema.safeParse(values);
    const found = parsed.success ? {} : fieldErrors<keyof Values>(parsed.error);
    if (parsed.success && parsed.data.amount > BigInt(Math.round(available * 100))) {
      found.amount = "Withdrawal amount cannot exceed your available balance.";
    }
    setErrors(found);
    if (!parsed.success || found.amount) return;

    const texts = { loading: "Submitting withdrawal request...", success: MSG.withdrawalSubmitted, failure: "Submission failed." };
    if (await withToast(texts, () => withdraw.submit({ ...parsed.data, amount: toDollars(parsed.data.amount) }))) reset();
  }

  return (
    // noValidate: our messages (the spec's) instead of the browser's; the attributes stay for keyboards.
    <form noValidate onSubmit={submit} className="card flex flex-col gap-4" aria-labelledby="withdraw-form-title">
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
        {(a11y) => (
          <input
            {...a11y}
            className="input"
            type="number"
            inputMode="decimal"
            min={MIN_WITHDRAWAL}
            max={available ?? undefined}
            step="0.01"
            required
            value={values.amount}
            onChange={set("amount")}
          />
        )}
      </Field>
      <p className="muted text-sm" aria-live="polite" data-testid="withdraw-estimate">
        {estimate ? (
          <>
            You will receive about <Money value={estimate.receive} className="font-semibold text-fg" /> after the 8% fee (
            <Money value={estimate.fee} />
            ); the full amount of <Money value={estimate.amount} /> is deducted from your balance.
          </>
        ) : (
          "An 8% fee is taken from each withdrawal; the full amount is deducted from your balance."
        )}
      </p>
      <button type="submit" className="btn btn-primary focus-ring" disabled={withdraw.isPending}>
        {withdraw.isPending ? "Submitting..." : "Submit withdrawal"}
      </button>
    </form>
  );
}
