import { expect, test } from "bun:test";
import { withHarness } from "../testing/harness";
import { CHAIN_CONFIG_HELP, DEMO_BEP20_ADDRESS, DEMO_WALLET_ADDRESS, loadChainConfig } from "./chainConfig";
import { CONFIG_HELP, loadConfig } from "./config";

const TRON_USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const TRON_OURS = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8";
const BSC_USDT = "0x55d398326f99059fF775485246999027B3197955";
const BSC_OURS = "0x52908400098527886E0F7030069857D2E4169EE7";

test("with nothing set, no network is verified on chain: demo addresses (no wallet takes them), 20 and 15 confirmations, a look every 15 s", () => {
  const chain = loadChainConfig({});
  expect(chain.networks.TRC20).toEqual({ network: "TRC20", depositAddress: DEMO_WALLET_ADDRESS, confirmations: 20, decimals: 6 });
  expect(chain.networks.BEP20).toEqual({ network: "BEP20", depositAddress: DEMO_BEP20_ADDRESS, confirmations: 15, decimals: 18 });
  expect(chain.pollSeconds).toBe(15);
  // DEPOSIT_WALLET_ADDRESS still names the TRC20 address shown, when TRC20_DEPOSIT_ADDRESS does not.
  expect(loadConfig({ DEPOSIT_WALLET_ADDRESS: TRON_USDT })).toMatchObject({ depositWalletAddress: TRON_USDT, chain: { networks: { TRC20: { depositAddress: TRON_USDT } } } });
  expect(loadConfig({ DEPOSIT_WALLET_ADDRESS: TRON_USDT, TRC20_DEPOSIT_ADDRESS: TRON_OURS }).depositWalletAddress).toBe(TRON_OURS);
  for (const [name] of CHAIN_CONFIG_HELP) expect(CONFIG_HELP.map(([n]) => n)).toContain(name);
});

test("a network with an RPC URL is verified: its contract and deposit address are read in its own form into 0x", () => {
  const chain = loadChainConfig({
    TRC20_RPC_URL: "http://127.0.0.1:50545/jsonrpc",
    TRC20_USDT_CONTRACT: TRON_USDT,
    TRC20_DEPOSIT_ADDRESS: TRON_OURS,
    TRC20_CONFIRMATIONS: "19",
    BEP20_RPC_URL: "https://127.0.0.1:8545",
    BEP20_USDT_CONTRACT: BSC_USDT.toLowerCase(),
    BEP20_DEPOSIT_ADDRESS: BSC_OURS,
    CHAIN_POLL_SECONDS: "5",
  });
  expect(chain.networks.TRC20).toMatchObject({
    rpcUrl: "http://127.0.0.1:50545/jsonrpc",
    token: "0xa614f803b6fd780986a42c78ec9c7f77e6ded13c",
    depositAddress: TRON_OURS,
    confirmations: 19,
  });
  expect(chain.networks.BEP20).toMatchObject({ token: BSC_USDT.toLowerCase(), depositAddress: BSC_OURS, depositHex: BSC_OURS.toLowerCase(), confirmations: 15 });
  expect(chain.pollSeconds).toBe(5);
});

test("a verified network without its contract or deposit address, or with invalid ones, stops the start with the reason", () => {
  const trc = { TRC20_RPC_URL: "http://127.0.0.1:1", TRC20_USDT_CONTRACT: TRON_USDT, TRC20_DEPOSIT_ADDRESS: TRON_OURS };
  expect(() => loadChainConfig(trc)).not.toThrow();
  expect(() => loadChainConfig({ ...trc, TRC20_USDT_CONTRACT: "" })).toThrow("TRC20_USDT_CONTRACT must be set with TRC20_RPC_URL");
  expect(() => loadChainConfig({ ...trc, TRC20_DEPOSIT_ADDRESS: "" })).toThrow("TRC20_DEPOSIT_ADDRESS must be set with TRC20_RPC_URL");
  expect(() => loadChainConfig({ ...trc, TRC20_USDT_CONTRACT: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u" })).toThrow("TRC20_USDT_CONTRACT is not a valid address");
  expect(() => loadChainConfig({ ...trc, TRC20_USDT_CONTRACT: "0xa614f803b6fd780986a42c78ec9c7f77e6ded13c" })).toThrow("TRC20_USDT_CONTRACT is not a valid address");
  expect(() => loadChainConfig({ ...trc, TRC20_DEPOSIT_ADDRESS: DEMO_WALLET_ADDRESS })).toThrow("TRC20_DEPOSIT_ADDRESS is not a valid address");
  expect(() => loadChainConfig({ ...trc, TRC20_RPC_URL: "ws://127.0.0.1:1" })).toThrow("TRC20_RPC_URL must be an http:// or https:// URL");
  // Before: anything starting with http:// or https:// passed.
  for (const bad of ["http://", "https://not a url", "https//node.example", "ftp://node.example"]) {
    expect(() => loadChainConfig({ ...trc, TRC20_RPC_URL: bad })).toThrow(`TRC20_RPC_URL must be an http:// or https:// URL with a host, got ${bad}`);
  }
  expect(loadChainConfig({ ...trc, TRC20_RPC_URL: "HTTPS://node.example:8545/jsonrpc" }).networks.TRC20.rpcUrl).toBe("HTTPS://node.example:8545/jsonrpc");
  expect(() => loadChainConfig({ ...trc, TRC20_CONFIRMATIONS: "0" })).toThrow("TRC20_CONFIRMATIONS must be a whole number of 1 or more");
  expect(() => loadChainConfig({ BEP20_RPC_URL: "http://127.0.0.1:1", BEP20_USDT_CONTRACT: BSC_USDT, BEP20_DEPOSIT_ADDRESS: TRON_OURS })).toThrow(
    "BEP20_DEPOSIT_ADDRESS is not a valid address",
  );
  expect(() => loadChainConfig({ CHAIN_POLL_SECONDS: "0" })).toThrow("CHAIN_POLL_SECONDS must be a whole number of 1 or more");
  // Past 2^31 ms a timer fires at once: the watcher would spin. A day at most.
  expect(loadChainConfig({ CHAIN_POLL_SECONDS: "86400" }).pollSeconds).toBe(86_400);
  expect(() => loadChainConfig({ CHAIN_POLL_SECONDS: "3000000" })).toThrow("CHAIN_POLL_SECONDS must be a whole number of 1 or more and 86400 at most");
});

test("a deposit address that is set is checked even when its network is not verified on chain: members send money to it", () => {
  // Before: only with the network's RPC URL; a mistyped address (its checksum wrong) was shown.
  const typo = `${TRON_OURS.slice(0, -1)}9`;
  expect(() => loadChainConfig({ TRC20_DEPOSIT_ADDRESS: typo })).toThrow(`TRC20_DEPOSIT_ADDRESS is not a valid address (${typo})`);
  expect(() => loadChainConfig({ DEPOSIT_WALLET_ADDRESS: typo })).toThrow(`DEPOSIT_WALLET_ADDRESS is not a valid address (${typo})`);
  expect(() => loadChainConfig({ BEP20_DEPOSIT_ADDRESS: "0x52908400098527886e0F7030069857D2E4169EE7" })).toThrow("BEP20_DEPOSIT_ADDRESS is not a valid address");
  expect(() => loadChainConfig({ BEP20_DEPOSIT_ADDRESS: TRON_OURS })).toThrow("BEP20_DEPOSIT_ADDRESS is not a valid address");
  expect(() => loadConfig({ DEPOSIT_WALLET_ADDRESS: "TOld" })).toThrow("DEPOSIT_WALLET_ADDRESS is not a valid address");
  // Valid ones are shown as written (a BEP20 one in its checksummed form); unset, the demo addresses.
  const chain = loadChainConfig({ TRC20_DEPOSIT_ADDRESS: TRON_OURS, BEP20_DEPOSIT_ADDRESS: BSC_OURS.toLowerCase() });
  expect(chain.networks.TRC20.depositAddress).toBe(TRON_OURS);
  expect(chain.networks.BEP20.depositAddress).toBe(BSC_OURS);
  expect(loadChainConfig({ TRC20_DEPOSIT_ADDRESS: " ", BEP20_DEPOSIT_ADDRESS: "" }).networks.BEP20.depositAddress).toBe(DEMO_BEP20_ADDRESS);
});

test("GET /api/config names every network with the deposit address shown for it, from the same settings the verifier reads", async () => {
  const chain = loadChainConfig({ TRC20_RPC_URL: "http://127.0.0.1:1", TRC20_USDT_CONTRACT: TRON_USDT, TRC20_DEPOSIT_ADDRESS: TRON_OURS, BEP20_DEPOSIT_ADDRESS: BSC_OURS });
  await withHarness(
    async (h) => {
      expect((await h.call("GET", "/api/config")).body).toEqual({
        depositWalletAddress: TRON_OURS,
        networks: [
          { network: "TRC20", depositAddress: TRON_OURS, verified: true, confirmations: 20, ownAddresses: false },
          { network: "BEP20", depositAddress: BSC_OURS, verified: false, confirmations: 15, ownAddresses: false },
        ],
      });
    },
    { config: { chain, depositWalletAddress: TRON_OURS } },
  );
});

test("an extended public key gives members their own addresses; the shared address is then not required, and a private key stops the start without being echoed", () => {
  const XPUB = "xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP";
  const chain = loadChainConfig({ BEP20_RPC_URL: "http://127.0.0.1:8545", BEP20_USDT_CONTRACT: BSC_USDT, BEP20_XPUB: XPUB });
  expect(chain.networks.BEP20.addressKey?.xpub).toBe(XPUB);
  expect(chain.networks.BEP20.depositHex).toBeUndefined();
  // Child 0/0 of that key is the test phrase's first account.
  expect(chain.networks.BEP20.addressKey?.derive(0).address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");

  expect(() => loadChainConfig({ BEP20_XPUB: XPUB })).toThrow("BEP20_XPUB needs BEP20_RPC_URL and BEP20_USDT_CONTRACT");
  const secret = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi";
  let message = "";
  try {
    loadChainConfig({ BEP20_RPC_URL: "http://127.0.0.1:8545", BEP20_USDT_CONTRACT: BSC_USDT, BEP20_XPUB: secret });
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message).toStartWith("BEP20_XPUB is not usable: this is a private key");
  expect(message).not.toContain(secret.slice(4, 24));
  expect(() => loadChainConfig({ TRC20_RPC_URL: "http://127.0.0.1:8545", TRC20_USDT_CONTRACT: TRON_USDT, TRC20_XPUB: "not a key" })).toThrow("TRC20_XPUB is not usable");
});
