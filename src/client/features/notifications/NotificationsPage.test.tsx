import { json, serveFetch, useDom } from "../../../testing/dom";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import NotificationsPage from "./NotificationsPage";

useDom();

const member = makeMe();
const kinds = (muted: string[]) =>
  [
    ["partner_joined", "A partner joined your team", true],
    ["gift_received", "You received a gift", true],
    ["deposit_decided", "Your deposit was accepted or declined", false],
  ].map(([kind, label, mutable]) => ({ kind, label, mutable, muted: muted.includes(kind as string) }));

function serve(put: (body: { muted: string[] }) => Response = (body) => json({ kinds: kinds(body.muted) })) {
  return serveFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return json(wireMe(member));
    if (path === "/api/user/notifications") return json({ items: [], totalPages: 0, unread: 0 });
    if (path === "/api/user/notifications/settings") return request.method === "PUT" ? put(await request.clone().json()) : json({ kinds: kinds(["gift_received"]) });
    return json({ msg: "Not found." }, 404);
  });
}

test("the settings show each kind as a checkbox (security notices checked and disabled) and save the muted kinds with a toast", async () => {
  const seen = serve();
  renderClient(<NotificationsPage />, { me: member });
  const form = within(await screen.findByRole("form", { name: "Notification settings" }));
  const partner = form.getByRole("checkbox", { name: "A partner joined your team" }) as HTMLInputElement;
  const gift = form.getByRole("checkbox", { name: "You received a gift" }) as HTMLInputElement;
  const deposit = form.getByRole("checkbox", { name: /Your deposit was accepted or declined/ }) as HTMLInputElement;
  expect([partner.checked, gift.checked, deposit.checked]).toEqual([true, false, true]);
  expect(deposit.disabled).toBe(true);
  expect(form.getByText("Security notice: always on.")).toBeTruthy();
  // Keyboard: a native checkbox, reachable and toggled by click/space.
  partner.focus();
  expect(document.activeElement).toBe(partner);
  fireEvent.click(partner);
  fireEvent.click(gift);
  fireEvent.click(form.getByRole("button", { name: "Save settings" }));
  expect(await screen.findByText("Notification settings saved.")).toBeTruthy();
  const put = seen.find((r) => r.method === "PUT")!;
  expect(await put.json()).toEqual({ muted: ["partner_joined"] });
  expect(partner.checked).toBe(false);
  expect(gift.checked).toBe(true);
});

test("a refused save says why", async () => {
  serve(() => json({ msg: "Notices about your own deposits and withdrawals are security notices and cannot be muted.", code: "notification_not_mutable" }, 400));
  renderClient(<NotificationsPage />, { me: member });
  const form = within(await screen.findByRole("form", { name: "Notification settings" }));
  fireEvent.click(form.getByRole("button", { name: "Save settings" }));
  expect((await screen.findAllByText("Notices about your own deposits and withdrawals are security notices and cannot be muted.")).length).toBeGreaterThan(0);
});

test("a refused save of the settings is said once, not twice", async () => {
  const refusal = "Notices about your own deposits and withdrawals are security notices and cannot be muted.";
  serveFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return json(wireMe(member));
    if (path === "/api/user/notifications") return json({ items: [], totalPages: 0, unread: 0 });
    if (path === "/api/user/notifications/settings")
      return request.method === "PUT" ? json({ msg: refusal, code: "notification_not_mutable" }, 400) : json({ kinds: kinds([]) });
    return json({ msg: "Not found.", code: "not_found" }, 404);
  });
  renderClient(<NotificationsPage />, { me: member });
  const form = within(await screen.findByRole("form", { name: "Notification settings" }));
  fireEvent.click(form.getByRole("button", { name: "Save settings" }));
  await screen.findAllByText(refusal);
  await act(() => Bun.sleep(200));
  expect(screen.getAllByText(refusal)).toHaveLength(1);
});

test("'Mark all as read' sends the newest notification shown (upTo), so one that arrives meanwhile stays unread", async () => {
  const item = (id: string, text: string) => ({ _id: id, kind: "partner_joined", text, createdAt: "2026-01-02T00:00:00.000Z", read: false });
  const seen = serveFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return json(wireMe(member));
    if (path === "/api/user/notifications") return json({ items: [item("12", "Bob joined"), item("9", "Carol joined")], totalPages: 1, unread: 2 });
    if (path === "/api/user/notifications/read") return json({ unread: 0 });
    if (path === "/api/user/notifications/settings") return json({ kinds: kinds([]) });
    return json({ msg: "Not found.", code: "not_found" }, 404);
  });
  renderClient(<NotificationsPage />, { me: member });
  await screen.findByText("Bob joined");
  fireEvent.click(screen.getByRole("button", { name: "Mark all as read" }));
  const isRead = (r: Request) => r.method === "POST" && new URL(r.url).pathname === "/api/user/notifications/read";
  await waitFor(() => expect(seen.some(isRead)).toBe(true));
  expect(await seen.find(isRead)!.json()).toEqual({ all: true, upTo: "12" });
});

test("a server that mails notifications: a second checkbox per kind, security mails always on, and the mailed kinds saved with the muted", async () => {
  const withMail = (muted: string[], mailed: string[]) => [
    ...kinds(muted).map((k) => ({ ...k, mailed: mailed.includes(String(k.kind)), mailable: true })),
    { kind: "withdrawal_decided", label: "Your withdrawal was accepted or declined", mutable: false, muted: false, mailed: true, mailable: false },
  ];
  const seen = serveFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return json(wireMe(member));
    if (path === "/api/user/notifications") return json({ items: [], totalPages: 0, unread: 0 });
    if (path === "/api/user/notifications/settings") {
      if (request.method !== "PUT") return json({ kinds: withMail([], ["partner_joined"]) });
      const body = (await request.clone().json()) as { muted: string[]; mailed: string[] };
      return json({ kinds: withMail(body.muted, body.mailed) });
    }
    return json({ msg: "Not found." }, 404);
  });
  renderClient(<NotificationsPage />, { me: member });
  const form = within(await screen.findByRole("form", { name: "Notification settings" }));
  const partnerMail = form.getByRole("checkbox", { name: "A partner joined your team: also by mail" }) as HTMLInputElement;
  const giftMail = form.getByRole("checkbox", { name: "You received a gift: also by mail" }) as HTMLInputElement;
  const withdrawalMail = form.getByRole("checkbox", { name: "Your withdrawal was accepted or declined: also by mail" }) as HTMLInputElement;
  expect([partnerMail.checked, giftMail.checked, withdrawalMail.checked, withdrawalMail.disabled]).toEqual([true, false, true, true]);
  expect(form.getByText("Always mailed")).toBeTruthy();
  fireEvent.click(giftMail);
  // A kind not received is not mailed either.
  fireEvent.click(form.getByRole("checkbox", { name: "A partner joined your team" }));
  expect(partnerMail.disabled).toBe(true);
  fireEvent.click(form.getByRole("button", { name: "Save settings" }));
  expect(await screen.findByText("Notification settings saved.")).toBeTruthy();
  const put = seen.find((r) => r.method === "PUT")!;
  expect(await put.json()).toEqual({ muted: ["partner_joined"], mailed: ["partner_joined", "gift_received"] });
});
