import toast from "react-hot-toast";
import { Money } from "../../components/Money";
import { confirmAction } from "../../lib/confirm";
import { failureMessage, successMessage } from "../../lib/serverMessage";
import { useDeleteUser } from "./api/deleteUser";
import type { UserRow } from "./api/getUsers";

interface UsersTableProps {
  users: UserRow[];
  onGift: (user: UserRow) => void;
}

/** One page of users with the admin's two actions. Scrolls sideways on narrow screens. */
export function UsersTable({ users, onGift }: UsersTableProps) {
  const remove = useDeleteUser();

  async function deleteUser(user: UserRow) {
    const ok = await confirmAction({
      title: "Delete this user?",
      text: `${user.name} (${user.email}) will no longer be able to sign in. Their history is kept.`,
      confirmText: "Yes, delete!",
      danger: true,
    });
    if (!ok) return;
    try {
      toast.success(successMessage(await remove.mutateAsync(user._id), "User deleted successfully!"));
    } catch (error) {
      toast.error(failureMessage(error, "Failed to delete user."));
    }
  }

  return (
    <div className="card overflow-x-auto p-0">
      <table className="table min-w-[40rem]">
        <thead>
          <tr>
            <th className="th">ID</th>
            <th className="th">Name</th>
            <th className="th">Email</th>
            <th className="th text-right">Balance</th>
            <th className="th text-right">Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user._id}>
              <td className="td max-w-[8rem] truncate font-mono text-xs" title={user._id}>
                {user._id}
              </td>
              <td className="td">{user.name}</td>
              <td className="td break-all">{user.email}</td>
              <td className="td-money">
                <Money value={user.balance} />
              </td>
              <td className="td">
                <div className="flex justify-end gap-2">
                  <button type="button" className="btn btn-secondary btn-sm focus-ring" onClick={() => onGift(user)}>
                    Gift<span className="sr-only"> to {user.name}</span>
                  </button>
                  {/* The server refuses to delete admins; the button is not offered. */}
                  {user.role !== "admin" && (
                    <button
                      type="button"
                      className="btn btn-danger btn-sm focus-ring"
                      disabled={remove.isPending}
                      onClick={() => void deleteUser(user)}
                    >
                      Delete<span className="sr-only"> {user.name}</span>
                    </button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
