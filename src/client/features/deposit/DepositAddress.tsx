import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import toast from "react-hot-toast";
import { type Network, NETWORK_INFO, NETWORKS, networkName } from "../../../shared/chain";
import { MIN_DEPOSIT } from "../../../shared/constants";
import { formatUsdt } from "../../../shared/money";
import { CopyButton } from "../../components/CopyButton";
import { ErrorState } from "../../components/ErrorState";
import { QrCode } from "../../components/QrCode";
import { Spinner } from "../../components/Spinner";
import { ApiError } from "../../lib/api";
import { failureMessage } from "../../lib/serverMessage";
import { configKey, useConfig } from "./api/getConfig";
import { useDepositAddress } from "./api/getDepositAddress";

/** A widely used non-custodial wallet with USDT on TRON and BNB Smart Chain. */
const WALLET_APP_URL = "https://play.google.com/store/apps/details?id=com.wallet.crypto.trustapp";

/** Chains people send USDT on by mistake, for the warning: the other network's, and Ethereum's. */
const otherChains = (network: Network) => [...NETWORKS.filter((n) => n !== network).map((n) => NETWORK_INFO[n].chain), "Ethereum"].join(" or ");

interface DepositAddressProps {
  network: Network;
  onNetworkChange: (network: Network) => void;
}

/**
 * Where to send the USDT: the member picks the network, and sees that network's address, named
 * beside it, as text to copy and as a QR code drawn in the browser, with the warning that USDT
 * sent on another network is lost. A network that gives members addresses of their own shows the
 * member's, credited by the chain without a claim; the others show the platform's shared address.
 */
export function DepositAddress({ network, onNetworkChange }: DepositAddressProps) {
  const config = useConfig();
  const networks = config.data?.networks ?? [];
  const chosen = networks.find((n) => n.network === network) ?? networks[0];
  return (
    <section className="card flex flex-col gap-4" aria-labelledby="deposit-address-title">
      <h2 id="deposit-address-title" className="card-title">
        Send USDT to this address
      </h2>
      {config.isPending && <Spinner label="Loading the deposit address..." />}
      {config.isError && <ErrorState message="Could not load the deposit address." onRetry={() => void config.refetch()} />}
      {chosen && (
        <>
          <fieldset className="m-0 flex flex-col gap-2 border-0 p-0">
            <legend className="field-label">Network</legend>
            <div className="flex flex-wrap gap-2">
              {networks.map((n) => (
                <label
                  key={n.network}
                  className={`btn btn-sm ${n.network === chosen.network ? "btn-primary" : "btn-secondary"} focus-within:outline-2 focus-within:outline-solid focus-within:outline-focus focus-within:outline-offset-2`}
                >
                  <input
                    type="radio"
                    name="deposit-network"
                    value={n.network}
                    checked={n.network === chosen.network}
                    onChange={() => onNetworkChange(n.network)}
                    className="sr-only"
                  />
                  {networkName(n.network)}
                </label>
              ))}
            </div>
          </fieldset>
          {chosen.ownAddresses ? (
            <OwnAddress network={chosen.network} />
          ) : (
            <>
              <AddressBlock network={chosen.network} address={chosen.depositAddress} qrLabel={`QR code of the ${networkName(chosen.network)} deposit address`} />
              <p className="muted m-0 text-sm">
                {chosen.verified
                  ? `After sending, submit the form: the deposit is credited automatically once the transaction has ${chosen.confirmations} confirmations on ${NETWORK_INFO[chosen.network].chain}.`
                  : "After sending, submit the form so an admin can credit your balance."}
              </p>
            </>
          )}
        </>
      )}
      <p className="muted m-0 text-sm">
        No wallet yet?{" "}
        <a className="link" href={WALLET_APP_URL} target="_blank" rel="noopener noreferrer">
          Get Trust Wallet on Google Play
        </a>
        .
      </p>
    </section>
  );
}

/** An address to send to: the QR code, the network it is on, the text with its copy button, and the wrong-network warning. */
function AddressBlock({ network, address, qrLabel, note }: { network: Network; address: string; qrLabel: string; note?: string }) {
  return (
    <>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <QrCode text={address} label={qrLabel} />
        <div className="flex min-w-0 flex-1 flex-col gap-3">
          <p className="m-0 text-sm font-semibold text-fg" data-testid="deposit-network-name">
            USDT on {networkName(network)}
          </p>
          {note && <p className="muted m-0 text-sm">{note}</p>}
          <code className="break-all rounded-control bg-ink-deep px-3 py-2 font-mono text-sm text-figure-blue">{address}</code>
          <CopyButton text={address} label="Copy address" onCopied={() => toast.success("Address copied to clipboard!")} />
        </div>
      </div>
      <p role="note" className="m-0 rounded-control border border-declined/50 bg-declined/10 px-3 py-2 text-sm text-fg">
        <strong>Send only USDT on {networkName(network)} to this address.</strong> Funds sent on another network, such as {otherChains(network)}, are
        lost and cannot be recovered.
      </p>
    </>
  );
}

/**
 * The member's own address on a network that gives one: what arrives there is credited by the
 * chain watcher, so there is nothing to claim. A 409 means the server no longer gives addresses
 * on this network (a restart without its key): the site's settings are read again, and the page
 * falls back to the shared address and the form.
 */
function OwnAddress({ network }: { network: Network }) {
  const address = useDepositAddress(network, true);
  const client = useQueryClient();
  const unavailable = address.error instanceof ApiError && address.error.code === "deposit_address_unavailable";
  useEffect(() => {
    if (unavailable) void client.invalidateQueries({ queryKey: configKey });
  }, [unavailable, client]);

  if (address.isPending) return <Spinner label="Loading your deposit address..." />;
  if (address.isError) {
    const message = failureMessage(address.error, "Could not load your deposit address.");
    return <ErrorState title="Your deposit address is not available" message={message} onRetry={unavailable ? undefined : () => void address.refetch()} />;
  }
  const { confirmations } = address.data;
  return (
    <>
      <AddressBlock
        network={network}
        address={address.data.address}
        qrLabel={`QR code of your ${networkName(network)} deposit address`}
        note="This address is yours alone: whatever arrives there is credited to you."
      />
      <p className="muted m-0 text-sm">
        Transfers to this address are credited to your balance automatically after {confirmations} confirmations on {NETWORK_INFO[network].chain}: no
        form needed. The minimum deposit is {formatUsdt(MIN_DEPOSIT)}; a transfer below it is recorded but not credited.
      </p>
    </>
  );
}
