import { queryOptions, useQuery } from "@tanstack/react-query";
import { SEARCH_MIN_LENGTH } from "../../../../shared/constants";
import { MEMBER } from "../../../../shared/contract/member";
import type { foundUser } from "../../../../shared/contract/member";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

export type FoundUser = Answer<typeof foundUser>;

export const userSearchKey = (text: string) => ["user", "search", text] as const;

export const searchUsers = (text: string, signal?: AbortSignal) =>
  call(MEMBER.searchUsers, { query: { search: text }, signal, quiet: true });

export const userSearchQuery = (text: string) =>
  queryOptions({ queryKey: userSearchKey(text), queryFn: ({ signal }) => searchUsers(text, signal) });

/** Runs only for a (debounced) text of at least 3 characters; the server refuses shorter ones. */
export const useUserSearch = (text: string) => useQuery({ ...userSearchQuery(text), enabled: text.length >= SEARCH_MIN_LENGTH });
