import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import { renderApp } from "../../../testing/renderApp";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import { MSG } from "../../../shared/messages";
import AccountSettings from "./AccountSettings";

useDom();

const formNamed = (name: string) => within(screen.getByRole("form", { name }));

test("the name: a name that passes for staff is refused under the field with the server's reason; a good one is saved", async () => {
  const seen = serveFetch(async (request) => {
    const { name } = (await request.clone().json()) as { name: string };
    if (name === "Admin!") return json({ msg: MSG.reservedName, code: "validation" }, 400);
    return json({ msg: MSG.profileSaved, name });
  });
  renderClient(<AccountSettings user={makeMe()} />);
  const form = formNamed("Edit profile");
  expect((form.getByLabelText("Name") as HTMLInputElement).value).toBe("Ada Lovelace");
  fireEvent.change(form.getByLabelText("Name"), { target: { value: "Admin!" } });
  fireEvent.click(form.getByRole("button", { name: "Save name" }));
  expect(await form.findByText(MSG.reservedName)).toBeTruthy();
  expect(form.getByLabelText("Name").getAttribute("aria-invalid")).toBe("true");
  // The forms' own rule catches the plain ones before any call.
  fireEvent.change(form.getByLabelText("Name"), { target: { value: "System" } });
  fireEvent.click(form.getByRole("button", { name: "Save name" }));
  await waitFor(() => expect(form.getByText(MSG.reservedName)).toBeTruthy());
  expect(seen).toHaveLength(1);
  fireEvent.change(form.getByLabelText("Name"), { target: { value: "Ada King" } });
  fireEvent.click(form.getByRole("button", { name: "Save name" }));
  expect(await screen.findByText(MSG.profileSaved)).toBeTruthy();
  expect(new URL(seen[1]!.url).pathname).toBe("/api/user/profile");
  expect(seen[1]!.method).toBe("PUT");
});

test("the email: a taken address and a wrong password are said at their fields; then the link is on its way and the address stays until it is opened", async () => {
  serveFetch(async (request) => {
    const { newEmail, password } = (await request.clone().json()) as { newEmail: string; password: string };
    if (password !== "my-password") return json({ msg: MSG.wrongPassword, code: "wrong_password" }, 400);
    if (newEmail === "taken@example.com") return json({ msg: MSG.emailTaken, code: "email_taken" }, 409);
    return json({ msg: MSG.emailChangeSent(newEmail) });
  });
  renderClient(<AccountSettings user={makeMe()} />);
  const form = formNamed("Change email");
  const fill = (label: string, value: string) => fireEvent.change(form.getByLabelText(label), { target: { value } });
  expect(form.getByText("ada@example.com")).toBeTruthy();
  fill("New email", "taken@example.com");
  fill("Current password", "guess");
  fireEvent.click(form.getByRole("button", { name: "Change email" }));
  expect(await form.findByText(MSG.wrongPassword)).toBeTruthy();
  fill("Current password", "my-password");
  fireEvent.click(form.getByRole("button", { name: "Change email" }));
  expect(await form.findByText(MSG.emailTaken)).toBeTruthy();
  expect(form.getByLabelText("New email").getAttribute("aria-invalid")).toBe("true");
  fill("New email", "ada@new.example.com");
  fireEvent.click(form.getByRole("button", { name: "Change email" }));
  expect((await form.findByText(MSG.emailChangeSent("ada@new.example.com"))).getAttribute("role")).toBe("status");
  expect(form.getByText("ada@example.com")).toBeTruthy();
});

test("an unverified member sees the banner on every dashboard page; send again mails a new link", async () => {
  const member = makeMe({ emailVerified: false });
  const seen = serveFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return json(wireMe(member));
    if (path === "/api/auth/email/verify/resend") return json({ msg: MSG.verificationSent });
    return json({ msg: "Not found." }, 404);
  });
  renderApp("/userDashboard/security", { token: "t" });
  const banner = (await screen.findByText(/Please confirm your email address/)).parentElement!;
  expect(banner.textContent).toContain("ada@example.com");
  fireEvent.click(within(banner).getByRole("button", { name: "Send again" }));
  expect(await screen.findByText(MSG.verificationSent)).toBeTruthy();
  expect(seen.some((r) => new URL(r.url).pathname === "/api/auth/email/verify/resend" && r.method === "POST")).toBe(true);
});

test("a verified member, or a server that does not say, shows no banner", async () => {
  for (const member of [makeMe({ emailVerified: true }), makeMe()]) {
    serveFetch(async (request) => (new URL(request.url).pathname === "/api/auth" ? json(wireMe(member)) : json({ msg: "Not found." }, 404)));
    const { unmount } = renderApp("/userDashboard/security", { token: "t" });
    await screen.findByRole("heading", { name: "Security" });
    expect(screen.queryByText(/Please confirm your email address/)).toBeNull();
    unmount();
  }
});
