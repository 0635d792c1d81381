import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { USER_PAGE_SIZE } from "../../../../shared/constants";
import { api } from "../../../lib/api";

export interface UserRow {
  _id: string;
  name: string;
  email: string;
  role: "admin" | "user";
  balance: number;
}

export interface UserList {
  users: UserRow[];
  totalPages: number;
}

export interface UserListParams {
  page: number;
  search: string;
}

export const usersKey = (params?: UserListParams) => (params ? ["admin", "users", params] : ["admin", "users"]) as readonly unknown[];

export const getUsers = ({ page, search }: UserListParams, signal?: AbortSignal) => {
  const query = new URLSearchParams({ page: String(page), limit: String(USER_PAGE_SIZE), search });
  return api<UserList>("GET", `/admin/users?${query}`, { signal, quiet: true });
};

export const usersQuery = (params: UserListParams) =>
  queryOptions({ queryKey: usersKey(params), queryFn: ({ signal }) => getUsers(params, signal) });

export const useUsers = (params: UserListParams) => useQuery({ ...usersQuery(params), placeholderData: keepPreviousData });
