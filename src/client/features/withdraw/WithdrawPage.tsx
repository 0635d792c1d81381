import { WithdrawForm } from "./WithdrawForm";

/** Withdraw: the amount is held at once and paid out when an admin accepts. */
export default function WithdrawPage() {
  return (
    <div className="flex max-w-xl flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Withdraw</h1>
      <WithdrawForm />
    </div>
  );
}
