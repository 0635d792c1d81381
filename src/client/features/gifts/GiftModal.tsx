import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { MIN_GIFT } from "../../../shared/constants";
import { toDollars } from "../../../shared/money";
import { giftSchema } from "../../../shared/schemas";
import { Field } from "../../components/Field";
import { Modal } from "../../components/Modal";
import { Money } from "../../components/Money";
import { availableBalance, useMe } from "../../lib/me";
import { failureMessage, successMessage } from "../../lib/serverMessage";
import type { FoundUser } from "./api/searchUsers";
import { useSendGift } from "./api/sendGift";

const INVALID = "Please enter a valid positive amount.";

/** Gift to one user: open -> sending -> closed on success (spec section 4). */
export function GiftModal({ recipient, onClose }: { recipient: FoundUser | null; onClose: () => void }) {
  const { user } = useMe();
  const [amount, setAmount] = useState("");
  const [error, setError] = useState<string>();
  const gift = useSendGift();

  function close() {
    setAmount("");
    setError(undefined);
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!recipient) return;
    // The spec has one message for every unusable amount (empty, zero, negative, 3 decimals).
    const parsed = giftSchema.shape.amount.safeParse(amount);
    if (!parsed.success) {
      setError(INVALID);
      return;
    }
    setError(undefined);
    try {
      const answer = await gift.submit({ amount: toDollars(parsed.data), recipientEmail: recipient.email });
      toast.success(successMessage(answer, "Gift sent successfully!"));
      close();
    } catch (failure) {
      toast.error(failureMessage(failure, "An error occurred."));
    }
  }

  return (
    <Modal open={recipient !== null} title={`Send a gift to ${recipient?.name ?? ""}`} onClose={close} dismissible={!gift.isPending}>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <p className="muted break-all text-sm">{recipient?.email}</p>
        <Field
          label="Gift amount (USDT)"
          error={error}
          hint={user ? <>Available: <Money value={availableBalance(user)} /></> : undefined}
        >
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
          <button type="button" className="btn btn-secondary focus-ring" onClick={close} disabled={gift.isPending}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary focus-ring" disabled={gift.isPending}>
            {gift.isPending ? "Sending..." : "Send gift"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
