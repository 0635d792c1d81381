/**
 * The logout dialogs of the spec, built on the native <dialog> (focus trap, Escape, top
 * layer for free) so the landing page does not pull in sweetalert2.
 */
interface DialogOptions {
  title: string;
  text: string;
  tone: "question" | "success" | "error";
  confirmText?: string;
  cancelText?: string;
  /** Closes by itself after this many ms (the success dialog). */
  timerMs?: number;
}

const TONE = { question: "text-figure-violet", success: "text-active", error: "text-declined" };
const MARK = { question: "?", success: "✓", error: "!" };

export function showDialog({ title, text, tone, confirmText = "OK", cancelText, timerMs }: DialogOptions): Promise<boolean> {
  const dialog = document.createElement("dialog");
  dialog.className =
    "m-auto w-[min(26rem,calc(100vw-2rem))] rounded-card border border-line bg-panel p-6 text-center text-fg shadow-raised backdrop:bg-black/70";
  dialog.setAttribute("aria-labelledby", "dlg-title");
  dialog.setAttribute("aria-describedby", "dlg-text");
  dialog.innerHTML = `
    <p aria-hidden="true" class="m-0 mx-auto mb-3 flex size-14 items-center justify-center rounded-pill border-2 border-current text-2xl font-bold ${TONE[tone]}">${MARK[tone]}</p>
    <h2 id="dlg-title" class="m-0 text-xl font-bold"></h2>
    <p id="dlg-text" class="m-0 mt-2 muted"></p>
    <div class="mt-6 flex justify-center gap-3" data-actions></div>`;
  dialog.querySelector("#dlg-title")!.textContent = title;
  dialog.querySelector("#dlg-text")!.textContent = text;
  const actions = dialog.querySelector("[data-actions]")!;
  const button = (label: string, className: string, value: string) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = className;
    b.textContent = label;
    b.addEventListener("click", () => dialog.close(value));
    actions.append(b);
    return b;
  };
  if (cancelText) button(cancelText, "btn-secondary", "cancel");
  if (!timerMs) button(confirmText, tone === "error" ? "btn-danger" : "btn-primary", "confirm").focus();

  document.body.append(dialog);
  dialog.showModal();
  if (timerMs) setTimeout(() => dialog.open && dialog.close("confirm"), timerMs);
  return new Promise((resolve) =>
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(dialog.returnValue === "confirm");
    }),
  );
}

export const confirmLogout = () =>
  showDialog({ title: "Are you sure?", text: "Do you want to log out?", tone: "question", confirmText: "Yes, logout!", cancelText: "Cancel" });
