import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test } from "bun:test";
import { MSG } from "../../../shared/messages";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import DepositPage from "./DepositPage";

useDom();

const me = makeMe();
const OWN = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";
const config = (ownAddresses: boolean) => ({
  depositWalletAddress: "TDepositAddr",
  networks: [
    { network: "TRC20", depositAddress: "TDepositAddr", verified: false, confirmations: 20, ownAddresses: false },
    { network: "BEP20", depositAddress: "0xBscDepositAddr", verified: true, confirmations: 2, ownAddresses },
  ],
});
const emptyPage = { items: [], page: 1, totalPages: 1 };

/** The page's calls: the member, the site's settings, the requests, and `address` for GET /api/user/deposit/address. */
function serve(address: (url: URL) => Response, { own = (): boolean => true } = {}) {
  return serveFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/auth") return json(wireMe(me));
    if (url.pathname === "/api/config") return json(config(own()));
    if (url.pathname === "/api/user/requests") return json(emptyPage);
    if (url.pathname === "/api/user/deposit/address") return address(url);
    return json({ msg: "unexpected" }, 500);
  });
}
const addressCalls = (seen: Request[]) => seen.filter((r) => new URL(r.url).pathname === "/api/user/deposit/address").map((r) => new URL(r.url).search);
const pickBep20 = async () => fireEvent.click(await screen.findByRole("radio", { name: "BEP20 (BNB Smart Chain)" }));

test("a network with addresses of their own shows the member's address and QR code, says it is credited after N confirmations, and has no form", async () => {
  const seen = serve(() => json({ network: "BEP20", address: OWN, index: 7, confirmations: 2 }));
  const copied: string[] = [];
  Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText: async (text: string) => void copied.push(text) } });
  renderClient(<DepositPage />, { me });
  // TRC20 first: the shared address and the claim form, and no address of the member's asked for.
  expect(await screen.findByText("TDepositAddr")).toBeTruthy();
  expect(screen.getByRole("button", { name: "Submit deposit" })).toBeTruthy();
  expect(addressCalls(seen)).toEqual([]);

  await pickBep20();
  expect(await screen.findByText(OWN)).toBeTruthy();
  expect(screen.queryByText("0xBscDepositAddr")).toBeNull();
  const qr = screen.getByRole("img", { name: "QR code of your BEP20 (BNB Smart Chain) deposit address" }) as HTMLImageElement;
  expect(qr.src.startsWith("data:image/svg+xml")).toBe(true);
  expect(screen.getByText("This address is yours alone: whatever arrives there is credited to you.")).toBeTruthy();
  expect(screen.getByRole("note").textContent).toContain("Send only USDT on BEP20 (BNB Smart Chain) to this address.");
  const rule = screen.getByText(/Transfers to this address are credited/).textContent;
  expect(rule).toContain("automatically after 2 confirmations on BNB Smart Chain: no form needed");
  expect(rule).toContain("The minimum deposit is 1 USDT; a transfer below it is recorded but not credited.");
  // Nothing to claim on this network.
  expect(screen.queryByRole("button", { name: "Submit deposit" })).toBeNull();
  expect(screen.queryByLabelText("Transaction ID")).toBeNull();
  fireEvent.click(screen.getByRole("button", { name: "Copy address" }));
  expect(await screen.findByText("Address copied to clipboard!")).toBeTruthy();
  expect(copied).toEqual([OWN]);
  expect(addressCalls(seen)).toEqual(["?network=BEP20"]);

  // Back on TRC20 the form returns; BEP20 again reuses the address already read.
  fireEvent.click(screen.getByRole("radio", { name: "TRC20 (TRON)" }));
  expect(await screen.findByRole("button", { name: "Submit deposit" })).toBeTruthy();
  await pickBep20();
  expect(await screen.findByText(OWN)).toBeTruthy();
  expect(addressCalls(seen)).toEqual(["?network=BEP20"]);
});

test("a node that does not answer (503) says so in place, and Try again reads the address again", async () => {
  let down = true;
  serve(() => (down ? json({ msg: MSG.chainUnavailable, code: "chain_unavailable" }, 503) : json({ network: "BEP20", address: OWN, index: 0, confirmations: 2 })));
  renderClient(<DepositPage />, { me });
  await pickBep20();
  const alert = await screen.findByRole("alert");
  expect(alert.textContent).toContain("Your deposit address is not available");
  expect(alert.textContent).toContain(MSG.chainUnavailable);
  expect(screen.queryByRole("button", { name: "Submit deposit" })).toBeNull();
  down = false;
  fireEvent.click(screen.getByRole("button", { name: "Try again" }));
  expect(await screen.findByText(OWN)).toBeTruthy();
});

test("a network that no longer gives addresses (409) says so, reads the settings again and falls back to the shared address and the form", async () => {
  let own = true;
  const seen = serve(
    () => {
      // The server was restarted without the network's key: its settings say so from now on.
      own = false;
      return json({ msg: MSG.depositAddressUnavailable, code: "deposit_address_unavailable" }, 409);
    },
    { own: () => own },
  );
  renderClient(<DepositPage />, { me });
  await pickBep20();
  expect(await screen.findByText("0xBscDepositAddr")).toBeTruthy();
  expect(screen.getByRole("button", { name: "Submit deposit" })).toBeTruthy();
  expect(screen.getByText("Network: BEP20 (BNB Smart Chain)")).toBeTruthy();
  await waitFor(() => expect(seen.filter((r) => new URL(r.url).pathname === "/api/config").length).toBe(2));
});
