import { networkName, networkOfMethod, readTransactionId } from "../../../shared/chain";

/**
 * The optional field of a withdrawal's acceptance: the payout's transaction ID, checked as the
 * server will against the withdrawal's network (src/shared/chain.ts), so a TRC20 payout is not
 * given a BEP20 ID or a look-alike.
 */
export function payoutIdField(accountType: string) {
  const network = networkOfMethod(accountType);
  return {
    inputLabel: `Payout transaction ID on ${networkName(network)} (optional)`,
    maxLength: 200,
    singleLine: true,
    check: (text: string) => {
      const read = readTransactionId(network, text);
      return "problem" in read ? read.problem : null;
    },
  };
}
