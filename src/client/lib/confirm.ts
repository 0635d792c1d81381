import Swal, { type SweetAlertOptions } from "sweetalert2";

export interface ConfirmOptions {
  title: string;
  text: string;
  confirmText: string;
  /** Destructive actions get the red button and start with focus on Cancel. */
  danger?: boolean;
}

/** The app's dark look for every sweetalert2 dialog: our own button tokens, not its inline colours. */
const look = (confirmText: string, danger: boolean): SweetAlertOptions => ({
  icon: danger ? "warning" : "question",
  theme: "dark",
  showCancelButton: true,
  confirmButtonText: confirmText,
  cancelButtonText: "Cancel",
  reverseButtons: true,
  buttonsStyling: false,
  customClass: {
    popup: "card",
    confirmButton: danger ? "btn btn-danger" : "btn btn-primary",
    cancelButton: "btn btn-secondary",
    actions: "gap-3",
  },
});

/**
 * A sweetalert2 confirmation in the app's dark look. Resolves true only on an explicit
 * confirm; Escape, the backdrop and Cancel all mean no.
 */
export async function confirmAction({ title, text, confirmText, danger = false }: ConfirmOptions): Promise<boolean> {
  const result = await Swal.fire({ ...look(confirmText, danger), title, text, focusCancel: danger });
  return result.isConfirmed;
}

export interface ReasonOptions extends ConfirmOptions {
  /** The label of the optional text field. */
  inputLabel: string;
  maxLength: number;
  /** A one-line field instead of the text area (an ID rather than words). */
  singleLine?: boolean;
  /** What is wrong with the (trimmed, non-empty) text, or null: the dialog cannot be confirmed until it is fixed. */
  check?: (text: string) => string | null;
}

/**
 * A confirmation with an optional text field (a decline's reason), which has the focus.
 * Resolves to the text, trimmed ("" when left empty), or null when not confirmed. Text longer
 * than `maxLength` cannot be confirmed: the dialog says so.
 */
export async function confirmWithReason({
  title,
  text,
  confirmText,
  danger = false,
  inputLabel,
  maxLength,
  singleLine = false,
  check,
}: ReasonOptions): Promise<string | null> {
  const result = await Swal.fire<string>({
    ...look(confirmText, danger),
    title,
    text,
    input: singleLine ? "text" : "textarea",
    inputLabel,
    inputPlaceholder: "Optional",
    inputAttributes: { maxlength: String(maxLength), autocomplete: "off", spellcheck: "false" },
    inputValidator: (value: string) => {
      const trimmed = value.trim();
      if (trimmed.length > maxLength) return `The ${singleLine ? "text" : "reason"} must be at most ${maxLength} characters.`;
      return trimmed && check ? check(trimmed) : null;
    },
  });
  return result.isConfirmed ? (result.value ?? "").trim() : null;
}
