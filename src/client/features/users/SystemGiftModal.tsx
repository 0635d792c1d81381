import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { MIN_GIFT } from "../../../shared/constants";
import { MSG } from "../../../shared/messages";
import { toDollars } from "../../../shared/money";
import { adminGiftSchema } from "../../../shared/schemas";
import { Field } from "../../components/Field";
import { Modal } from "../../components/Modal";
import { failureMessage, successMessage } from "../../lib/serverMessage";
import type { UserRow } from "./api/getUsers";
import { useGiftFromSystem } from "./api/giftFromSystem";

/** An admin credits a user from the operator's (system) funds. */
export function SystemGiftModal({ user, onClose }: { user: UserRow | null; onClose: () => void }) {
  const [amount, setAmount] = useState("");
  const [error, setError] = useState<string>();
  const gift = useGiftFromSystem();

  function close() {
    setAmount("");
    setError(undefined);
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!user) return;
    const parsed = adminGiftSchema.shape.amount.safeParse(amount);
    if (!parsed.success) {
      setError("Please enter a valid positive amount.");
      return;
    }
    setError(undefined);
    try {
      const answer = await gift.submit({ userId: user._id, amount: toDollars(parsed.data) });
      toast.success(successMessage(answer, MSG.adminGiftSent));
      close();
    } catch (failure) {
      toast.error(failureMessage(failure, "An error occurred."));
    }
  }

  return (
    <Modal open={user !== null} title={`Gift from system funds to ${user?.name ?? ""}`} onClose={close} dismissible={!gift.isPending}>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <p className="muted break-all text-sm">{user?.email}</p>
        <Field label="Amount (USDT)" error={error}>
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
