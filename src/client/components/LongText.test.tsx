import { render, screen } from "@testing-library/react";
import { expect, test } from "bun:test";
import { useDom } from "../../testing/dom";
import { EmailText, LongId } from "./LongText";

useDom();

test("an email offers line breaks after '@' and dots only, and its text stays the whole address", () => {
  const { container } = render(<EmailText email="a.very.long.name@example-company.co.uk" />);
  const span = container.firstElementChild!;
  expect(span.textContent).toBe("a.very.long.name@example-company.co.uk");
  // Each <wbr> follows a separator: no break point falls inside a word.
  const before = [...span.querySelectorAll("wbr")].map((wbr) => wbr.previousSibling?.textContent?.at(-1));
  expect(before).toEqual([".", ".", ".", "@", ".", "."]);
});

test("a long ID shows its two ends, keeps the whole value for screen readers and the tooltip, and copies whole", () => {
  const hash = "0f3a9c1d2e4b5a6978c0d1e2f3a4b5c6d7e8f90112233445566778899aabbccd";
  render(<LongId value={hash} label="transaction ID" />);
  expect(screen.getByText("0f3a9c1d…9aabbccd")).toBeTruthy();
  expect(screen.getByText(hash).className).toContain("sr-only");
  expect(screen.getByTitle(hash)).toBeTruthy();
  expect(screen.getByRole("button", { name: "Copy transaction ID" })).toBeTruthy();
});

test("a short ID is shown whole", () => {
  render(<LongId value="tx-1" label="transaction ID" />);
  expect(screen.getAllByText("tx-1")).toHaveLength(1);
  expect(screen.queryByTitle("tx-1")).toBeNull();
});
