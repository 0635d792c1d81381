import { useState } from "react";
import { DEFAULT_NETWORK, type Network } from "../../../shared/chain";
import { RequestsList } from "../../components/RequestsList";
import { useMyRequests } from "../myRequests/api/getMyRequests";
import { DepositAddress } from "./DepositAddress";
import { DepositForm } from "./DepositForm";

/** Deposit: send USDT to the platform's address, tell us about it, and follow the requests. */
export default function DepositPage() {
  const requests = useMyRequests("deposit");
  // The network the member sends on: the address shown and the request submitted follow it.
  const [network, setNetwork] = useState<Network>(DEFAULT_NETWORK);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Deposit</h1>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <DepositAddress network={network} onNetworkChange={setNetwork} />
        <DepositForm network={network} />
      </div>
      <RequestsList query={requests} type="deposit" />
    </div>
  );
}
