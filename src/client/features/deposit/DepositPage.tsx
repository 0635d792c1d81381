import { DepositAddress } from "./DepositAddress";
import { DepositForm } from "./DepositForm";

/** Deposit: send USDT to the platform's address, then tell us about it. */
export default function DepositPage() {
  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Deposit</h1>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <DepositAddress />
        <DepositForm />
      </div>
    </div>
  );
}
