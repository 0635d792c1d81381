import toast from "react-hot-toast";
import { Link } from "react-router";
import { memberPage } from "./memberPaths";
import { DataTable, type Column } from "../../components/DataTable";
import { EmailText, LongId } from "../../components/LongText";
import { Money } from "../../components/Money";
import { confirmAction } from "../../lib/confirm";
import { showFailure, successMessage } from "../../lib/serverMessage";
import { useDeleteUser } from "./api/deleteUser";
import type { UserRow } from "./api/getUsers";

interface UsersTableProps {
  users: UserRow[];
  onGift: (user: UserRow) => void;
  /** Shows the member's own deposit addresses. */
  onAddresses?: (user: UserRow) => void;
}

/** One page of users with the admin's actions; each name opens the member's record. */
export function UsersTable({ users, onGift, onAddresses }: UsersTableProps) {
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
      toast.success(successMessage(await remove.mutateAsync(user.id), "User deleted successfully!"));
    } catch (error) {
      showFailure(error, "Failed to delete user.");
    }
  }

  const columns: Column<UserRow>[] = [
    { header: "ID", cell: (user) => <LongId value={user.id} label="user ID" /> },
    {
      header: "Name",
      cell: (user) => (
        <Link to={memberPage(user.id)} className="link break-words">
          {user.name}
        </Link>
      ),
    },
    { header: "Email", cell: (user) => <EmailText email={user.email} /> },
    { header: "Balance", numeric: true, cell: (user) => <Money value={user.balance} /> },
    {
      header: "Actions",
      end: true,
      cell: (user) => (
        <span className="flex justify-end gap-2">
          {/* Gifts from system funds go to members only, and admins cannot be deleted: the server refuses both. */}
          {user.role !== "admin" && onAddresses && (
            <button type="button" className="btn btn-secondary btn-sm focus-ring" onClick={() => onAddresses(user)}>
              Addresses<span className="sr-only"> of {user.name}</span>
            </button>
          )}
          {user.role !== "admin" && (
            <button type="button" className="btn btn-secondary btn-sm focus-ring" onClick={() => onGift(user)}>
              Gift<span className="sr-only"> to {user.name}</span>
            </button>
          )}
          {user.role !== "admin" && (
            <button type="button" className="btn btn-danger btn-sm focus-ring" disabled={remove.isPending} onClick={() => void deleteUser(user)}>
              Delete<span className="sr-only"> {user.name}</span>
            </button>
          )}
        </span>
      ),
    },
  ];

  return <DataTable caption="Users" rows={users} rowKey={(user) => user.id} columns={columns} />;
}
