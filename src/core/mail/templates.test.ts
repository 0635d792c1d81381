import { expect, test } from "bun:test";
import { MAIL_TEMPLATES, renderMail } from "./templates";

const data = { name: "Ada <script>", token: "tok-1_2", source: "192.0.2.1", browser: 'Firefox "x"', newEmail: "new@example.com", amount: "2000", accountType: "USDT TRC20", accountNumber: "T123", status: "accepted", text: "Your withdrawal of 20 USDT was accepted.", kind: "gift_received" };

test("every mail has a subject, a text part and an HTML part in the site's look, under 30 KB, what it was given escaped in the HTML", () => {
  for (const template of MAIL_TEMPLATES) {
    const mail = renderMail({ template, to: "ada@example.com", data, at: new Date("2026-11-29T09:38:00Z") }, "https://matrix.example.com");
    expect([template, mail.subject.length > 0]).toEqual([template, true]);
    expect(mail.text.length).toBeGreaterThan(40);
    expect(Buffer.byteLength(mail.html) + Buffer.byteLength(mail.text)).toBeLessThan(30 * 1024);
    expect(mail.html).toContain("#0f172a");
    expect(mail.html).not.toContain("<script>");
    expect(mail.text).toContain("Hello Ada <script>,");
  }
});

test("the links go to PUBLIC_URL's pages, with the token", () => {
  const at = new Date();
  const link = (template: (typeof MAIL_TEMPLATES)[number]) => renderMail({ template, to: "a@b.c", data, at }, "https://matrix.example.com/app").link;
  expect(link("reset_password")).toBe("https://matrix.example.com/app/reset-password?token=tok-1_2");
  expect(link("verify_email")).toBe("https://matrix.example.com/app/confirm-email?token=tok-1_2");
  expect(link("change_email")).toBe("https://matrix.example.com/app/confirm-email?token=tok-1_2");
  expect(link("password_changed")).toBeUndefined();
});
