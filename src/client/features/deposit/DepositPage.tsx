import { useState } from "react";
import { DEFAULT_NETWORK, type Network } from "../../../shared/chain";
import { RequestsList } from "../../components/RequestsList";
import { useMyRequests } from "../myRequests/api/getMyRequests";
import { useConfig } from "./api/getConfig";
import { DepositAddress } from "./DepositAddress";
import { DepositForm } from "./DepositForm";

/** While the member's own address is shown, how often the list looks for a transfer that just arrived there. */
const OWN_ADDRESS_POLL_MS = 15_000;

/**
 * Deposit: send USDT to the platform's address, tell us about it, and follow the requests. On a
 * network where members have addresses of their own the chain tells us, so there is no form.
 */
export default function DepositPage() {
  // The network the member sends on: the address shown and the request submitted follow it.
  const [network, setNetwork] = useState<Network>(DEFAULT_NETWORK);
  const config = useConfig();
  const networks = config.data?.networks ?? [];
  const chosen = networks.find((n) => n.network === network) ?? networks[0];
  const ownAddress = chosen?.ownAddresses === true;
  // A transfer seen at the member's address pushes no event until it is credited: the list looks now and then.
  const requests = useMyRequests("deposit", ownAddress ? OWN_ADDRESS_POLL_MS : undefined);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Deposit</h1>
      <div className={ownAddress ? "max-w-3xl" : "grid grid-cols-1 gap-6 lg:grid-cols-2"}>
        <DepositAddress network={network} onNetworkChange={setNetwork} />
        {!ownAddress && <DepositForm network={network} />}
      </div>
      <RequestsList query={requests} type="deposit" />
    </div>
  );
}
