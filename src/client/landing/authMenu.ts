import { LOGOUT_DIALOG_MS } from "../../shared/constants";
import { PAGES } from "../../shared/pages";
import { avatarElement } from "../layout/initials";
import { confirmLogout, showDialog } from "./logoutDialog";

const TOKEN_KEY = "token";

/**
 * For a visitor with a stored token: swaps Log In / Register for an avatar menu with
 * Dashboard and Logout. An invalid token is forgotten, as the app's API client does on 401.
 */
export async function initAuthMenu() {
  const token = localStorage.getItem(TOKEN_KEY);
  const slot = document.querySelector<HTMLElement>("[data-auth-slot]");
  if (!token || !slot) return;
  let me: { name: string; email: string };
  try {
    const res = await fetch("/api/auth", { headers: { "x-auth-token": token, Accept: "application/json" } });
    if (res.status === 401) localStorage.removeItem(TOKEN_KEY);
    if (!res.ok) return;
    me = await res.json();
  } catch {
    return; // offline: the plain buttons still work
  }
  const original = [...slot.childNodes];
  slot.replaceChildren(buildMenu(me, token, () => slot.replaceChildren(...original)));
}

function buildMenu(me: { name: string; email: string }, token: string, restore: () => void) {
  const wrap = document.createElement("div");
  wrap.className = "relative";
  wrap.innerHTML = `
    <button type="button" aria-haspopup="menu" aria-expanded="false" aria-controls="user-menu" class="flex items-center gap-2 rounded-pill border border-line-subtle bg-panel py-1 pl-1 pr-3 text-sm font-medium text-fg hover:border-line-strong focus-ring">
      <span data-avatar class="flex"></span><span data-name class="hidden max-w-32 truncate sm:inline"></span><span aria-hidden="true" class="text-xs muted">▾</span>
    </button>
    <div id="user-menu" role="menu" hidden class="absolute right-0 z-50 mt-2 w-56 rounded-card border border-line bg-panel p-2 shadow-raised">
      <p class="m-0 truncate px-3 pb-2 pt-1 text-xs muted" data-email></p>
      <a role="menuitem" href="${PAGES.dashboard}" class="block rounded-control px-3 py-2 text-sm font-medium text-fg no-underline hover:bg-panel-strong focus-ring">Dashboard</a>
      <button role="menuitem" type="button" data-logout class="block w-full cursor-pointer rounded-control border-0 bg-transparent px-3 py-2 text-left text-sm font-medium text-declined hover:bg-panel-strong focus-ring">Logout</button>
    </div>`;
  const button = wrap.querySelector("button")!;
  const menu = wrap.querySelector<HTMLElement>("[role=menu]")!;
  const items = () => [...menu.querySelectorAll<HTMLElement>("[role=menuitem]")];
  wrap.querySelector("[data-avatar]")!.append(avatarElement(me.name, 32));
  wrap.querySelector("[data-name]")!.textContent = me.name;
  wrap.querySelector("[data-email]")!.textContent = me.email;
  button.setAttribute("aria-label", `Account menu for ${me.name}`);

  const open = (value: boolean, focusFirst = false) => {
    menu.hidden = !value;
    button.setAttribute("aria-expanded", String(value));
    if (value && focusFirst) items()[0]?.focus();
  };
  button.addEventListener("click", () => open(Boolean(menu.hidden), true));
  document.addEventListener("click", (e) => {
    if (!wrap.contains(e.target as Node)) open(false);
  });
  wrap.addEventListener("keydown", (e) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    if (e.key === "Escape" && !menu.hidden) {
      open(false);
      button.focus();
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (menu.hidden) return open(true, true);
      list[(at + (e.key === "ArrowDown" ? 1 : list.length - 1)) % list.length]?.focus();
    }
  });
  wrap.querySelector("[data-logout]")!.addEventListener("click", async () => {
    open(false);
    if (!(await confirmLogout())) return button.focus();
    try {
      const res = await fetch("/api/auth/logout", { method: "POST", headers: { "x-auth-token": token, Accept: "application/json" } });
      // An expired token is as good as logged out; anything else is a real failure.
      if (!res.ok && res.status !== 401) throw new Error(((await res.json().catch(() => ({}))) as { msg?: string }).msg || "Something went wrong.");
    } catch (error) {
      const text = error instanceof Error && error.message ? error.message : "Something went wrong.";
      await showDialog({ title: "Error!", text, tone: "error" });
      return;
    }
    localStorage.removeItem(TOKEN_KEY);
    restore();
    await showDialog({ title: "Logged Out!", text: "You have successfully logged out.", tone: "success", timerMs: LOGOUT_DIALOG_MS });
    window.location.assign(PAGES.login);
  });
  return wrap;
}
