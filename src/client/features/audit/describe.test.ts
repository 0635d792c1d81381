import { expect, test } from "bun:test";
import { actionLabel, describeChange, targetLabel } from "./describe";

// Money reads "12.50 $" with a no-break space, as everywhere else in the app.
const $ = (text: string) => text.replace(/ \$/g, "\u00a0$");

test("changed fields read 'name before → after', new ones 'name value', unchanged and dropped ones are context", () => {
  expect(describeChange({ status: "pending", userId: "u1", amount: "20.00" }, { status: "accepted" })).toEqual({
    changes: ["status pending → accepted"],
    context: ["user u1", $("amount 20.00 $")],
  });
  expect(describeChange({ cost: "10.00", unfreezeCost: "5.00" }, { cost: "12.50", unfreezeCost: "6.25" }).changes).toEqual([
    $("cost 10.00 $ → 12.50 $"),
    $("unfreeze cost 5.00 $ → 6.25 $"),
  ]);
  expect(describeChange(null, { amount: "3.00" })).toEqual({ changes: [$("amount 3.00 $")], context: [] });
  expect(describeChange(null, null)).toEqual({ changes: [], context: [] });
});

test("booleans read yes/no, missing values 'none', timestamps as dates, other objects as JSON", () => {
  const { changes } = describeChange({ deleted: false, note: null }, { deleted: true, note: { a: 1 }, deletedAt: "2026-03-01T10:00:00.000Z" });
  expect(changes[0]).toBe("deleted no → yes");
  expect(changes[1]).toBe('note none → {"a":1}');
  expect(changes[2]).toStartWith("deleted at ");
  expect(changes[2]).not.toContain("T10:00");
});

test("actions and targets in words, unknown ones made readable rather than hidden", () => {
  expect(actionLabel("withdrawal_decision")).toBe("Withdrawal decided");
  expect(actionLabel("password_reset")).toBe("Password reset");
  expect(targetLabel({ targetType: "level", targetId: "6p/12" })).toEqual({ kind: "6P · Level 12" });
  expect(targetLabel({ targetType: "deposit", targetId: "d1" })).toEqual({ kind: "Deposit", id: "d1" });
});
