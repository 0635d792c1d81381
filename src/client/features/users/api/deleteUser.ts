import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ADMIN } from "../../../../shared/contract/admin";
import { call } from "../../../lib/api";
import { usersKey } from "./getUsers";

export const deleteUser = (id: string) => call(ADMIN.deleteUser, { params: { id }, quiet: true });

export function useDeleteUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => client.invalidateQueries({ queryKey: usersKey() }),
  });
}
