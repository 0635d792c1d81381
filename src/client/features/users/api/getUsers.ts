import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { USER_PAGE_SIZE } from "../../../../shared/constants";
import { ADMIN } from "../../../../shared/contract/admin";
import type { userPage } from "../../../../shared/contract/admin";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

export type UserList = Answer<typeof userPage>;
export type UserRow = UserList["users"][number];

export interface UserListParams {
  page: number;
  search: string;
}

export const usersKey = (params?: UserListParams) => (params ? ["admin", "users", params] : ["admin", "users"]) as readonly unknown[];

export const getUsers = ({ page, search }: UserListParams, signal?: AbortSignal) => {
  return call(ADMIN.users, { query: { page, limit: USER_PAGE_SIZE, search }, signal, quiet: true });
};

export const usersQuery = (params: UserListParams) =>
  queryOptions({ queryKey: usersKey(params), queryFn: ({ signal }) => getUsers(params, signal) });

export const useUsers = (params: UserListParams) => useQuery({ ...usersQuery(params), placeholderData: keepPreviousData });
