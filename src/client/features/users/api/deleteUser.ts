import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { usersKey } from "./getUsers";

export const deleteUser = (id: string) => api<{ msg?: string }>("DELETE", `/admin/users/${encodeURIComponent(id)}`, { quiet: true });

export function useDeleteUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => client.invalidateQueries({ queryKey: usersKey() }),
  });
}
