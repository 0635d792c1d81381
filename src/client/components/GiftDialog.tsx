import { type ReactNode, useState } from "react";
import toast from "react-hot-toast";
import { MIN_GIFT } from "../../shared/constants";
import type { Cents } from "../../shared/money";
import * as z from "zod/mini";
import { amountTooLarge, giftSchema } from "../../shared/schemas";
import { showFailure, successMessage } from "../lib/serverMessage";
import { useSchemaForm } from "../lib/useSchemaForm";
import { AmountInput, Field } from "./Field";
import { Modal } from "./Modal";

/** The gift's amount rule, the same for a member's gift and an admin's. */
const amountSchema = z.pick(giftSchema, { amount: true });
// The spec has one message for every unusable amount (empty, zero, negative, 3 decimals);
// an amount above the maximum says what the maximum is.
const INVALID = "Please enter a valid positive amount.";
const TOO_LARGE = amountTooLarge();

interface GiftDialogProps {
  open: boolean;
  title: string;
  /** Shown under the title, so the sender sees exactly who receives. */
  email: string | undefined;
  label: string;
  hint?: ReactNode;
  pending: boolean;
  /** Sends the gift of `amount` cents; its answer's msg is the success toast. */
  send: (amount: Cents) => Promise<unknown>;
  /** Asked before sending (a dialog naming who and how much); false sends nothing and keeps the form. */
  confirm?: (amount: Cents) => Promise<boolean>;
  successDefault: string;
  onClose: () => void;
}

/** An amount form in a modal: open -> sending -> closed on success (spec section 4). */
export function GiftDialog({ open, title, email, label, hint, pending, send, confirm, successDefault, onClose }: GiftDialogProps) {
  const { values, errors, set, submit, reset } = useSchemaForm(amountSchema, { amount: "" });
  // While the confirmation is up, Escape is its own: it must not close this dialog under it.
  const [confirming, setConfirming] = useState(false);
  const busy = pending || confirming;

  function close() {
    reset();
    onClose();
  }

  const onSubmit = submit(async ({ amount }) => {
    if (confirm) {
      setConfirming(true);
      const confirmed = await confirm(amount).finally(() => setConfirming(false));
      if (!confirmed) return;
    }
    try {
      toast.success(successMessage(await send(amount), successDefault));
      close();
    } catch (failure) {
      showFailure(failure, "An error occurred.");
    }
  });

  return (
    <Modal open={open} title={title} onClose={close} dismissible={!busy}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <p className="muted break-all text-sm">{email}</p>
        <Field label={label} error={errors.amount && (errors.amount === TOO_LARGE ? TOO_LARGE : INVALID)} hint={hint}>
          {(a11y) => <AmountInput {...a11y} min={MIN_GIFT} value={values.amount} onChange={set("amount")} />}
        </Field>
        <div className="flex justify-end gap-3">
          <button type="button" className="btn btn-secondary focus-ring" onClick={close} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary focus-ring" disabled={busy}>
            {pending ? "Sending..." : "Send gift"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
