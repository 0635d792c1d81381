import { type ReactNode, useState } from "react";
import toast from "react-hot-toast";
import { MIN_GIFT } from "../../shared/constants";
import type { Cents } from "../../shared/money";
import { giftAmountSchema } from "../../shared/schemas";
import { failAtField, showFailure, successMessage } from "../lib/serverMessage";
import { useSchemaForm } from "../lib/useSchemaForm";
import { AmountInput, Field } from "./Field";
import { Modal } from "./Modal";

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
  /** A limit known before sending (the largest admin gift): what is wrong with `amount`, or null. Checked before `confirm`. */
  limit?: (amount: Cents) => string | null;
  successDefault: string;
  onClose: () => void;
}

/**
 * An amount form in a modal: open -> sending -> closed on success (spec section 4). The amount's
 * messages are the shared schema's; a limit known in advance is told at the field before any
 * confirmation, and a refusal of the server about the amount (the balance, the limit) at the
 * field too.
 */
export function GiftDialog({ open, title, email, label, hint, pending, send, confirm, limit, successDefault, onClose }: GiftDialogProps) {
  const { values, errors, set, submit, reset, fail } = useSchemaForm(giftAmountSchema, { amount: "" }, {
    check: (_values, data) => {
      const problem = data && limit?.(data.amount);
      return problem ? { amount: problem } : {};
    },
  });
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
      if (!failAtField(failure, fail, { amount: "amount" })) showFailure(failure, "An error occurred.");
    }
  });

  return (
    <Modal open={open} title={title} onClose={close} dismissible={!busy}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <p className="muted break-all text-sm">{email}</p>
        <Field label={label} error={errors.amount} hint={hint}>
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
