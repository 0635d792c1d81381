import { describe, expect, test } from "bun:test";
import { canPurchase, completesCycle, levelLook, passesUp, payee } from "./levels";
import { receiverSentence } from "./previewText";

describe("passesUp: the slot rule of docs/rules.md#slots", () => {
  test("3P: slots 1 and 2 pay the owner, slot 3 passes up and completes the cycle", () => {
    expect([1, 2, 3].map((slot) => passesUp("3p", slot))).toEqual([false, false, true]);
    expect([1, 2, 3].map((slot) => completesCycle("3p", slot))).toEqual([false, false, true]);
  });
  test("6P: slot 1 and slot 6 pass up, slots 2-5 pay the owner; only slot 6 completes the cycle", () => {
    expect([1, 2, 3, 4, 5, 6].map((slot) => passesUp("6p", slot))).toEqual([true, false, false, false, false, true]);
    expect([1, 2, 3, 4, 5, 6].map((slot) => completesCycle("6p", slot))).toEqual([false, false, false, false, false, true]);
  });
});

test("levelLook: level 1 and the level above the highest owned one are available, the rest as they are", () => {
  const levels = [
    { level: 1, status: "active" as const },
    { level: 2, status: "frozen" as const },
    { level: 3, status: "locked" as const },
    { level: 4, status: "locked" as const },
  ];
  expect(levels.map((l) => levelLook(l, levels))).toEqual(["active", "frozen", "available", "locked"]);
  const none = levels.map((l) => ({ ...l, status: "locked" as const }));
  expect(none.map((l) => levelLook(l, none))).toEqual(["available", "locked", "locked", "locked"]);
  expect(none.map((l) => canPurchase(l.level, none))).toEqual([true, false, false, false]);
});

test("payee: the System account and no account read 'the platform'", () => {
  expect(payee({ name: "System" })).toBe("the platform");
  expect(payee(null)).toBe("the platform");
  expect(payee({ name: "Grace Hopper" })).toBe("Grace Hopper");
});

describe("receiverSentence", () => {
  const base = { program: "3p" as const, level: 2, amount: 1_050n };
  test("a purchase paid to the owner", () => {
    expect(receiverSentence({ ...base, action: "purchase", receiver: { name: "Grace" }, matrix: { owner: { name: "Grace" }, slot: 1, outcome: "paid" } })).toBe(
      "You take slot 1 in Grace's matrix. 10.50\u00a0$ goes to Grace.",
    );
  });
  test("a purchase whose slot passes up", () => {
    expect(
      receiverSentence({ ...base, action: "purchase", receiver: { name: "Alan" }, matrix: { owner: { name: "Grace" }, slot: 3, outcome: "passed_up" } }),
    ).toBe("You take slot 3 in Grace's matrix; that slot passes the money up, so 10.50\u00a0$ goes to Alan.");
  });
  test("no one above: the platform, and why; no slot", () => {
    expect(receiverSentence({ ...base, action: "purchase", receiver: null, matrix: null })).toBe(
      "10.50\u00a0$ goes to the platform: no one above you holds Level 2 of 3P active.",
    );
    expect(receiverSentence({ ...base, action: "unfreeze", receiver: null, matrix: null })).toBe(
      "10.50\u00a0$ goes to the platform: no one above you holds Level 2 of 3P active.",
    );
  });
  test("a pass-up with no receiver: the platform, and why", () => {
    expect(receiverSentence({ ...base, action: "purchase", receiver: null, matrix: { owner: { name: "Grace" }, slot: 3, outcome: "passed_up" } })).toBe(
      "You take slot 3 in Grace's matrix; that slot passes the money up, and no one above Grace holds Level 2 of 3P active to receive it, so 10.50\u00a0$ goes to the platform.",
    );
  });
  test("an unfreeze names only the receiver", () => {
    expect(receiverSentence({ ...base, action: "unfreeze", receiver: { name: "Grace" }, matrix: null })).toBe("10.50\u00a0$ goes to Grace.");
  });
});
