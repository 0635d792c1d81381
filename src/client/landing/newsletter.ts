import { showToast } from "./toast";

/**
 * Sends the footer form to POST /api/newsletter as JSON and confirms with a toast. Without
 * JavaScript the same form posts to /newsletter and the server redirects back.
 */
export function initNewsletter() {
  const form = document.querySelector<HTMLFormElement>("form[data-newsletter]");
  if (!form) return;
  const status = document.querySelector<HTMLElement>("[data-newsletter-status]");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = form.querySelector<HTMLInputElement>('input[type="email"]')!;
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    button.disabled = true;
    let ok = false;
    let msg = "An unknown error occurred";
    try {
      const res = await fetch("/api/newsletter", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ email: input.value }),
      });
      const body = (await res.json().catch(() => ({}))) as { msg?: string };
      ok = res.ok;
      msg = body.msg || (ok ? "Thank you for subscribing!" : msg);
    } catch (error) {
      msg = error instanceof Error && error.message ? error.message : msg;
    } finally {
      button.disabled = false;
    }
    if (ok) form.reset();
    showToast(msg, ok);
    if (status) {
      status.textContent = msg;
      status.className = status.className.replace(/text-(active|declined)/, ok ? "text-active" : "text-declined");
    }
  });
}
