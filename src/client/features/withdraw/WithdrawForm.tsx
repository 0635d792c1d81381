import { useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { networkName, networkOfMethod } from "../../../shared/chain";
import { MIN_WITHDRAWAL, WITHDRAWAL_FEE_PERCENT, WITHDRAWAL_METHODS } from "../../../shared/constants";
import { MSG } from "../../../shared/messages";
import { formatPercent } from "../../../shared/money";
import { withdrawSchema } from "../../../shared/schemas";
import { AmountInput, Field } from "../../components/Field";
import { Figure } from "../../components/Figure";
import { Money } from "../../components/Money";
import { availableBalance, useMe } from "../../lib/me";
import { failAtField, withToast } from "../../lib/serverMessage";
import { useSchemaForm } from "../../lib/useSchemaForm";
import { addressAsWritten } from "../../lib/walletAddress";
import { estimateCents, estimateWithdrawal } from "../../lib/withdrawalEstimate";
import { useCreateWithdrawal, type WithdrawalInput } from "./api/createWithdrawal";

/** The spec's default network comes first. */
const EMPTY = { accountType: WITHDRAWAL_METHODS[0], accountNumber: "", amount: "" };
const FEE = formatPercent(WITHDRAWAL_FEE_PERCENT);
/** The server's refusals about a field of the request, by the form's field names. */
const FIELDS = { amount: "amount", accountNumber: "accountNumber" } as const;

/**
 * The withdrawal request in two steps: the form, checked against the available balance, then a
 * review of what will be sent (the network, the address as the network writes it, the amount,
 * the fee and what arrives), since a payout cannot be reversed. Only the review sends it.
 */
export function WithdrawForm() {
  const { user } = useMe();
  const available = user ? availableBalance(user) : null;
  // The balance and a BEP20 checksum are the rules the payload's schema cannot know; the server checks both again.
  const { values, errors, set, submit, reset, fail } = useSchemaForm(withdrawSchema, EMPTY, {
    check: (_values, data) => {
      if (!data) return {};
      const address = addressAsWritten(networkOfMethod(data.accountType), data.accountNumber);
      return {
        ...("problem" in address ? { accountNumber: address.problem } : {}),
        ...(available !== null && data.amount > available ? { amount: MSG.exceedsAvailable } : {}),
      };
    },
  });
  const withdraw = useCreateWithdrawal();
  const estimate = estimateWithdrawal(values.amount);
  /** What the review shows and sends; null while the form is being filled. */
  const [review, setReview] = useState<WithdrawalInput | null>(null);
  // One click, one withdrawal: a second click before the button shows itself disabled sends nothing.
  const sending = useRef(false);
  const form = useRef<HTMLFormElement>(null);
  /** A refusal sent the member back to the form: the field it is about takes the focus once shown. */
  const backToField = useRef(false);
  useEffect(() => {
    if (review || !backToField.current) return;
    backToField.current = false;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [review]);

  const onReview = submit((data) => {
    if (available === null) {
      toast.error("User data not loaded yet.");
      return;
    }
    const address = addressAsWritten(networkOfMethod(data.accountType), data.accountNumber);
    if ("address" in address) setReview({ ...data, accountNumber: address.address });
  });

  async function send() {
    if (!review || sending.current) return;
    sending.current = true;
    const texts = { loading: "Submitting withdrawal request...", success: MSG.withdrawalSubmitted, failure: "Submission failed." };
    // A refusal about the amount or the address goes back to the form, at that field.
    const atField = (error: unknown) => {
      if (!failAtField(error, fail, FIELDS)) return false;
      backToField.current = true;
      setReview(null);
      return true;
    };
    try {
      if (await withToast(texts, () => withdraw.submit(review), atField)) {
        reset();
        setReview(null);
      }
    } finally {
      sending.current = false;
    }
  }

  return (
    // noValidate: our messages (the spec's) instead of the browser's; the attributes stay for keyboards.
    <form
      ref={form}
      noValidate
      onSubmit={review ? (event) => event.preventDefault() : onReview}
      className="card flex flex-col gap-4"
      aria-labelledby="withdraw-form-title"
    >
      <h2 id="withdraw-form-title" className="card-title">
        Request a withdrawal
      </h2>
      <p className="muted text-sm">
        Available balance:{" "}
        {available === null ? (
          "…"
        ) : (
          <Figure>
            <Money value={available} className="font-semibold text-figure-green" />
          </Figure>
        )}
      </p>
      {review ? (
        <WithdrawalReview review={review} pending={withdraw.isPending} onEdit={() => setReview(null)} onSend={() => void send()} />
      ) : (
        <>
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
          <button type="submit" className="btn btn-primary focus-ring">
            Review withdrawal
          </button>
        </>
      )}
    </form>
  );
}

interface ReviewProps {
  review: WithdrawalInput;
  pending: boolean;
  onEdit: () => void;
  onSend: () => void;
}

/** What will leave, read back before it does: the figures are the server's own rule (withdrawalFee). */
function WithdrawalReview({ review, pending, onEdit, onSend }: ReviewProps) {
  const { amount, fee, receive } = estimateCents(review.amount);
  const heading = useRef<HTMLHeadingElement>(null);
  // Keyboard and screen-reader users land on what they are asked to check.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="withdraw-review-title" className="flex flex-col gap-3">
      <h3 id="withdraw-review-title" ref={heading} tabIndex={-1} className="m-0 text-base font-semibold text-fg outline-none">
        Check your withdrawal
      </h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm" aria-label="Withdrawal to send">
        <dt className="muted">Network</dt>
        <dd className="m-0 text-right">
          {review.accountType} · {networkName(networkOfMethod(review.accountType))}
        </dd>
        <dt className="muted">To address</dt>
        <dd className="m-0 text-right font-mono [overflow-wrap:anywhere]" data-testid="withdraw-review-address">
          {review.accountNumber}
        </dd>
        <dt className="muted">Amount</dt>
        <dd className="m-0 text-right">
          <Money value={amount} />
        </dd>
        <dt className="muted">Fee ({FEE})</dt>
        <dd className="m-0 text-right">
          <Money value={fee} />
        </dd>
        <dt className="font-semibold text-fg">You receive</dt>
        <dd className="m-0 text-right">
          <Money value={receive} className="font-semibold text-figure-green" />
        </dd>
      </dl>
      <p className="muted m-0 text-sm">
        The full amount of <Money value={amount} /> is held from your balance until an admin pays it. Payouts cannot be reversed: check the
        network and the address against your wallet. While it is pending you can still cancel it.
      </p>
      <div className="flex flex-wrap justify-end gap-3">
        <button type="button" className="btn btn-secondary focus-ring" onClick={onEdit} disabled={pending}>
          Edit
        </button>
        <button type="button" className="btn btn-primary focus-ring" onClick={onSend} disabled={pending}>
          {pending ? "Submitting..." : "Send withdrawal"}
        </button>
      </div>
    </section>
  );
}
