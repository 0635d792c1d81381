import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test } from "bun:test";
import { renderClient } from "../../../testing/renderClient";
import { DepositAddress } from "./DepositAddress";

useDom();

test("the deposit address is copied with 'Address copied to clipboard!' and the button says so for 2 seconds", async () => {
  serveFetch(() => json({ depositWalletAddress: "TDepositAddr" }));
  const copied: string[] = [];
  Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText: async (text: string) => void copied.push(text) } });
  renderClient(<DepositAddress />);
  fireEvent.click(await screen.findByRole("button", { name: "Copy address" }));
  expect(await screen.findByText("Address copied to clipboard!")).toBeTruthy();
  expect(copied).toEqual(["TDepositAddr"]);
  expect(screen.getByRole("button", { name: "Copied!" })).toBeTruthy();
  await waitFor(() => expect(screen.getByRole("button", { name: "Copy address" })).toBeTruthy(), { timeout: 2500 });
});
