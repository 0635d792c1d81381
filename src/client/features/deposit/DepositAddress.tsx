import toast from "react-hot-toast";
import { CopyButton } from "../../components/CopyButton";
import { ErrorState } from "../../components/ErrorState";
import { Spinner } from "../../components/Spinner";
import { useConfig } from "./api/getConfig";

/** A widely used non-custodial wallet with USDT on TRON and BNB Smart Chain. */
const WALLET_APP_URL = "https://play.google.com/store/apps/details?id=com.wallet.crypto.trustapp";

/** Where to send the USDT, with a copy button and a link to get a wallet. */
export function DepositAddress() {
  const config = useConfig();
  return (
    <section className="card flex flex-col gap-3" aria-labelledby="deposit-address-title">
      <h2 id="deposit-address-title" className="card-title">
        Send USDT to this address
      </h2>
      {config.isPending && <Spinner label="Loading the deposit address..." />}
      {config.isError && <ErrorState message="Could not load the deposit address." onRetry={() => void config.refetch()} />}
      {config.data && (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <code className="flex-1 break-all rounded-control bg-ink-deep px-3 py-2 font-mono text-sm text-figure-blue">
            {config.data.depositWalletAddress}
          </code>
          <CopyButton
            text={config.data.depositWalletAddress}
            label="Copy address"
            onCopied={() => toast.success("Address copied to clipboard!")}
          />
        </div>
      )}
      <p className="muted text-sm">
        No wallet yet?{" "}
        <a className="link" href={WALLET_APP_URL} target="_blank" rel="noopener noreferrer">
          Get Trust Wallet on Google Play
        </a>
        . After sending, submit the form so an admin can credit your balance.
      </p>
    </section>
  );
}
