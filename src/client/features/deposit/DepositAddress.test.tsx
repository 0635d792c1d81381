import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test } from "bun:test";
import { useState } from "react";
import type { Network } from "../../../shared/chain";
import { renderClient } from "../../../testing/renderClient";
import { DepositAddress } from "./DepositAddress";

useDom();

const CONFIG = {
  depositWalletAddress: "TDepositAddr",
  networks: [
    { network: "TRC20", depositAddress: "TDepositAddr", verified: true, confirmations: 20, ownAddresses: false },
    { network: "BEP20", depositAddress: "0xBscDepositAddr", verified: false, confirmations: 15, ownAddresses: false },
  ],
};

/** The address card with the page's network choice around it. */
function Picker() {
  const [network, setNetwork] = useState<Network>("TRC20");
  return <DepositAddress network={network} onNetworkChange={setNetwork} />;
}

test("the deposit address is copied with 'Address copied to clipboard!' and the button says so for 2 seconds", async () => {
  serveFetch(() => json(CONFIG));
  const copied: string[] = [];
  Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText: async (text: string) => void copied.push(text) } });
  renderClient(<Picker />);
  fireEvent.click(await screen.findByRole("button", { name: "Copy address" }));
  expect(await screen.findByText("Address copied to clipboard!")).toBeTruthy();
  expect(copied).toEqual(["TDepositAddr"]);
  expect(screen.getByRole("button", { name: "Copied!" })).toBeTruthy();
  await waitFor(() => expect(screen.getByRole("button", { name: "Copy address" })).toBeTruthy(), { timeout: 2500 });
});

test("picking a network shows that network's address, named beside it, as a QR code drawn here, with the warning about other networks", async () => {
  const seen = serveFetch(() => json(CONFIG));
  renderClient(<Picker />);
  const tron = await screen.findByRole("radio", { name: "TRC20 (TRON)" });
  expect((tron as HTMLInputElement).checked).toBe(true);
  expect(screen.getByText("TDepositAddr")).toBeTruthy();
  expect(screen.getByText("USDT on TRC20 (TRON)")).toBeTruthy();
  const qr = screen.getByRole("img", { name: "QR code of the TRC20 (TRON) deposit address" }) as HTMLImageElement;
  const tronQr = qr.src;
  expect(tronQr.startsWith("data:image/svg+xml")).toBe(true);
  expect(screen.getByRole("note").textContent).toContain("Send only USDT on TRC20 (TRON) to this address.");
  expect(screen.getByRole("note").textContent).toContain("are lost");
  expect(screen.getByText(/credited automatically once the transaction has 20 confirmations on TRON/)).toBeTruthy();

  fireEvent.click(screen.getByRole("radio", { name: "BEP20 (BNB Smart Chain)" }));
  expect(await screen.findByText("0xBscDepositAddr")).toBeTruthy();
  expect(screen.queryByText("TDepositAddr")).toBeNull();
  expect(screen.getByText("USDT on BEP20 (BNB Smart Chain)")).toBeTruthy();
  const bscQr = screen.getByRole("img", { name: "QR code of the BEP20 (BNB Smart Chain) deposit address" }) as HTMLImageElement;
  expect(bscQr.src.startsWith("data:image/svg+xml")).toBe(true);
  expect(bscQr.src).not.toBe(tronQr);
  expect(screen.getByRole("note").textContent).toContain("Send only USDT on BEP20 (BNB Smart Chain) to this address.");
  expect(screen.getByText(/so an admin can credit your balance/)).toBeTruthy();
  // Only our own API was asked: the QR code is drawn in the browser.
  expect(seen.every((r) => new URL(r.url).pathname === "/api/config")).toBe(true);
});
