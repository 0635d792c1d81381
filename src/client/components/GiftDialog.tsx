import { useState, type FormEvent, type ReactNode } from "react";
import toast from "react-hot-toast";
import { MIN_GIFT } from "../../shared/constants";
import { toDollars } from "../../shared/money";
import { giftSchema } from "../../shared/schemas";
import { failureMessage, successMessage } from "../lib/serverMessage";
import { Field } from "./Field";
import { Modal } from "./Modal";

const INVALID = "Please enter a valid positive amount.";

interface GiftDialogProps {
  open: boolean;
  title: string;
  /** Shown under the title, so the sender sees exactly who receives. */
  email: string | undefined;
  label: string;
  hint?: ReactNode;
  pending: boolean;
  /** Sends the gift of `amount` dollars; its answer's msg is the success toast. */
  send: (amount: number) => Promise<unknown>;
  successDefault: string;
  onClose: () => void;
}

/** An amount form in a modal: open -> sending -> closed on success (spec section 4). */
export function GiftDialog({ open, title, email, label, hint, pending, send, successDefault, onClose }: GiftDialogProps) {
  const [amount, setAmount] = useState("");
  const [error, setError] = useState<string>();

  function close() {
    setAmount("");
    setError(undefined);
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    // The spec has one message for every unusable amount (empty, zero, negative, 3 decimals).
    const parsed = giftSchema.shape.amount.safeParse(amount);
    if (!parsed.success) {
      setError(INVALID);
      return;
    }
    setError(undefined);
    try {
      toast.success(successMessage(await send(toDollars(parsed.data)), successDefault));
      close();
    } catch (failure) {
      toast.error(failureMessage(failure, "An error occurred."));
    }
  }

  return (
    <Modal open={open} title={title} onClose={close} dismissible={!pending}>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <p className="muted break-all text-sm">{email}</p>
        <Field label={label} error={error} hint={hint}>
          {(a11y) => (
            <input
              {...a11y}
              className="input"
              type="number"
              inputMode="decimal"
              min={MIN_GIFT}
              step="0.01"
              required
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
            />
          )}
        </Field>
        <div className="flex justify-end gap-3">
          <button type="button" className="btn btn-secondary focus-ring" onClick={close} disabled={pending}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary focus-ring" disabled={pending}>
            {pending ? "Sending..." : "Send gift"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
