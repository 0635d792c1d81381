import { TOAST_MS } from "../../shared/constants";

/** A small toast for the landing page, in the region the server renders (aria-live). */
export function showToast(text: string, ok = true) {
  const region = document.querySelector<HTMLElement>("[data-toast-region]");
  if (!region) return;
  const toast = document.createElement("div");
  toast.className = `pointer-events-auto flex items-center gap-2 rounded-control border bg-panel px-4 py-3 text-sm font-medium text-fg shadow-raised animate-[fade-in_200ms_ease-out] ${
    ok ? "border-active/50" : "border-declined/60"
  }`;
  const dot = document.createElement("span");
  dot.setAttribute("aria-hidden", "true");
  dot.className = `size-2.5 shrink-0 rounded-pill ${ok ? "bg-active" : "bg-declined"}`;
  toast.append(dot, text);
  region.append(toast);
  setTimeout(() => toast.remove(), TOAST_MS);
}
