// checkDeposit against a node on loopback that answers what a faulty or caching proxy could:
// evidence is only ever read from the receipt of the transaction asked for.
import { afterAll, expect, test } from "bun:test";
import type { VerifiedNetwork } from "./config";
import { checkDeposit, TRANSFER_TOPIC } from "./verify";

const TOKEN = `0x${"11".repeat(20)}` as const;
const OURS = `0x${"22".repeat(20)}` as const;
const SENDER = `0x${"33".repeat(20)}` as const;
const pad = (address: string) => `0x${"0".repeat(24)}${address.slice(2)}`;
const ASKED = "ab".repeat(32);
const OTHER = "cd".repeat(32);

/** The receipt's transactionHash the node answers with, per test. */
let answeredHash: string | undefined;
const node = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    const body = (await request.json()) as { id: number; method: string };
    const result =
      body.method === "eth_blockNumber"
        ? "0x10"
        : {
            transactionHash: answeredHash,
            status: "0x1",
            blockNumber: "0x5",
            logs: [{ address: TOKEN, topics: [TRANSFER_TOPIC, pad(SENDER), pad(OURS)], data: `0x${(100n * 10n ** 18n).toString(16).padStart(64, "0")}` }],
          };
    return Response.json({ jsonrpc: "2.0", id: body.id, result });
  },
});
afterAll(() => node.stop(true));

const settings: VerifiedNetwork = { network: "BEP20", rpcUrl: `http://127.0.0.1:${node.port}`, token: TOKEN, depositAddress: OURS, depositHex: OURS, confirmations: 1, decimals: 18 };
const check = () => checkDeposit(settings, { network: "BEP20", txHash: ASKED, senderHex: SENDER, amount: 10_000n }, 2_000);

test("the receipt of the transaction asked for is evidence (the hash compared without regard to case)", async () => {
  answeredHash = `0x${ASKED.toUpperCase()}`;
  expect(await check()).toMatchObject({ verdict: "match", found: true, amount: "100.00" });
});

test("a receipt of another transaction, or one that names none, is a node error, never a match", async () => {
  for (const hash of [`0x${OTHER}`, undefined]) {
    answeredHash = hash;
    const evidence = await check();
    expect(evidence).toMatchObject({ verdict: "rpc_error", found: false });
    expect(evidence.error).toContain("another transaction");
  }
});
