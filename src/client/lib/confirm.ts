import Swal from "sweetalert2";

export interface ConfirmOptions {
  title: string;
  text: string;
  confirmText: string;
  /** Destructive actions get the red button and start with focus on Cancel. */
  danger?: boolean;
}

/**
 * A sweetalert2 confirmation in the app's dark look. Resolves true only on an explicit
 * confirm; Escape, the backdrop and Cancel all mean no.
 */
export async function confirmAction({ title, text, confirmText, danger = false }: ConfirmOptions): Promise<boolean> {
  const result = await Swal.fire({
    title,
    text,
    icon: danger ? "warning" : "question",
    theme: "dark",
    showCancelButton: true,
    confirmButtonText: confirmText,
    cancelButtonText: "Cancel",
    reverseButtons: true,
    focusCancel: danger,
    // Our own button tokens instead of sweetalert's inline colours.
    buttonsStyling: false,
    customClass: {
      popup: "card",
      confirmButton: danger ? "btn btn-danger" : "btn btn-primary",
      cancelButton: "btn btn-secondary",
      actions: "gap-3",
    },
  });
  return result.isConfirmed;
}
