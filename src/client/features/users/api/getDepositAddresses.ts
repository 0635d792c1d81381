import { useQuery } from "@tanstack/react-query";
import { ADMIN, type memberDepositAddress } from "../../../../shared/contract/admin";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

export type MemberDepositAddress = Answer<typeof memberDepositAddress>;

export const getDepositAddresses = (userId: string, signal?: AbortSignal) => call(ADMIN.userDepositAddresses, { params: { id: userId }, signal, quiet: true });

/** A member's own deposit addresses, one per network they opened the deposit page on. */
export const useDepositAddresses = (userId: string | null) =>
  useQuery({
    queryKey: ["admin", "users", "deposit-addresses", userId],
    queryFn: ({ signal }) => getDepositAddresses(userId!, signal),
    enabled: userId !== null,
  });
