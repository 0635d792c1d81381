import { useQuery } from "@tanstack/react-query";
import type { Network } from "../../../../shared/chain";
import { MEMBER, type ownDepositAddress } from "../../../../shared/contract/member";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

export type OwnDepositAddress = Answer<typeof ownDepositAddress>;

export const depositAddressKey = (network: Network) => ["me", "deposit-address", network] as const;

export const getDepositAddress = (network: Network, signal?: AbortSignal) => call(MEMBER.depositAddress, { query: { network }, signal, quiet: true });

/**
 * The member's own address on `network`, for networks that give one (config `ownAddresses`).
 * It never changes once given, so it is read once per network and session.
 */
export const useDepositAddress = (network: Network, enabled: boolean) =>
  useQuery({ queryKey: depositAddressKey(network), queryFn: ({ signal }) => getDepositAddress(network, signal), enabled, staleTime: Infinity });
