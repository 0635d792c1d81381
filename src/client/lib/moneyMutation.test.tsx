import { json, serveFetch, useDom } from "../../testing/dom";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import { expect, test } from "bun:test";
import type { ReactNode } from "react";
import { useCreateDeposit } from "../features/deposit/api/createDeposit";
import { RESEND_WINDOW_MS } from "./moneyMutation";
import { MSG } from "../../shared/messages";
import { useCreateWithdrawal } from "../features/withdraw/api/createWithdrawal";
import { meKey, meQuery } from "./me";
import { REFRESH_WAIT_MS } from "./refresh";
import { setToken } from "./session";

useDom();

const deposit = { address: "TXyz", transactionId: "abc123", amount: 1250n };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A real money hook with the app's defaults (mutations not retried): its own retry policy must win. */
function renderDeposit() {
  setToken("test-token");
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return renderHook(() => useCreateDeposit(), { wrapper }).result;
}

/** Answers the calls in turn: "network" makes fetch itself fail, a number is that status. */
function serveInTurn(...answers: ("network" | number)[]) {
  let call = 0;
  const seen = serveFetch(() => {
    const answer = answers[Math.min(call++, answers.length - 1)]!;
    if (answer === "network") throw new TypeError("Failed to fetch");
    return json(answer < 300 ? { msg: "Deposit request submitted successfully." } : { msg: "Refused.", code: "validation" }, answer);
  });
  return { keys: () => seen.map((r) => r.headers.get("Idempotency-Key")), seen };
}

test("a network failure is retried with the same Idempotency-Key; the next submit gets a new key", async () => {
  const fetched = serveInTurn("network", 201, 201);
  const hook = renderDeposit();
  await act(() => hook.current.submit(deposit));
  const [first, retry] = fetched.keys();
  expect(first).toMatch(UUID);
  expect(retry).toBe(first!);
  // The key travels in the header, never in the body; the amount as exact decimal text.
  expect(await fetched.seen[1]!.json()).toEqual({ ...deposit, amount: "12.50" });

  await act(() => hook.current.submit(deposit));
  const [, , next] = fetched.keys();
  expect(next).toMatch(UUID);
  expect(next).not.toBe(first!);
  expect(fetched.seen).toHaveLength(3);
});

test("an answer from the server is final: a 4xx or 5xx is not retried", async () => {
  for (const status of [400, 409, 422, 500]) {
    const fetched = serveInTurn(status, 201);
    const hook = renderDeposit();
    await act(() => expect(hook.current.submit(deposit)).rejects.toMatchObject({ status }));
    expect(fetched.seen).toHaveLength(1);
  }
});

test("'still being processed' (an earlier attempt with the key is running) is retried with the same key, and its answer is the one shown", async () => {
  let call = 0;
  const seen = serveFetch(() =>
    call++ === 0 ? json({ msg: MSG.keyBusy, code: "idempotency_busy" }, 409) : json({ msg: "Deposit request submitted successfully." }, 201),
  );
  const hook = renderDeposit();
  let answer: unknown;
  await act(async () => {
    answer = await hook.current.submit(deposit);
  });
  expect(answer).toEqual({ msg: "Deposit request submitted successfully." });
  const keys = seen.map((r) => r.headers.get("Idempotency-Key"));
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]!);
});

test("after the retries run out, resending the same input keeps its key; other input, or a resend after an answer, gets a new one", async () => {
  const fetched = serveInTurn("network", "network", "network", 400, 400, "network", "network", "network", 201);
  const hook = renderDeposit();
  const key = (n: number) => fetched.keys()[n]!;
  await act(() => expect(hook.current.submit(deposit)).rejects.toMatchObject({ status: 0 }));
  expect(key(0)).toMatch(UUID);
  expect(fetched.keys()).toEqual([key(0), key(0), key(0)]); // the first try and its 2 retries

  // The outcome is unknown, so the user's "send again" is the same action: same key.
  await act(() => expect(hook.current.submit(deposit)).rejects.toMatchObject({ status: 400 }));
  expect(key(3)).toBe(key(0));
  // That got an answer (which the server keeps replaying for this key), so the next try is a new action.
  await act(() => expect(hook.current.submit(deposit)).rejects.toMatchObject({ status: 400 }));
  expect(key(4)).not.toBe(key(0));

  // Unknown outcome again, but the user changed the amount: that is another action.
  await act(() => expect(hook.current.submit(deposit)).rejects.toMatchObject({ status: 0 }));
  await act(() => hook.current.submit({ ...deposit, amount: 1300n }));
  expect(key(8)).toMatch(UUID);
  expect(key(8)).not.toBe(key(5));
  expect(new Set(fetched.keys()).size).toBe(4);
}, 15_000);

test("a 5xx, a 429 or an unreadable success leaves the outcome unknown: resending the same input keeps the key, and the member is told it may have gone", async () => {
  for (const status of [500, 502, 504, 429]) {
    const fetched = serveInTurn(status, 201);
    const hook = renderDeposit();
    await act(() => expect(hook.current.submit(deposit)).rejects.toBeTruthy());
    await act(() => hook.current.submit(deposit));
    const [first, resent] = fetched.keys();
    expect(resent).toBe(first!);
  }
  // A proxy's 504 with a page of its own: the outcome is told as unknown, not as a failure.
  serveFetch(() => new Response("<html>Gateway Timeout</html>", { status: 504 }));
  const hook = renderDeposit();
  await act(() => expect(hook.current.submit(deposit)).rejects.toMatchObject({ status: 504, message: MSG.outcomeUnknown, body: { msg: MSG.outcomeUnknown } }));
  // A 429 of the server's own keeps its sentence.
  serveFetch(() => json({ msg: "Too many searches (at most 30 a minute). Please wait a moment and try again.", code: "throttled" }, 429));
  await act(() => expect(hook.current.submit(deposit)).rejects.toMatchObject({ status: 429, body: { code: "throttled" } }));
});

test("a success is said even when the figures it changed cannot be read again (the server went away right after answering)", async () => {
  let answered = false;
  serveFetch((request) => {
    if (request.method === "POST") return (answered = true), json({ msg: "Withdrawal request submitted successfully." }, 201);
    return new Response("", { status: 503 }); // every read after it fails; the user's read tries again and again
  });
  setToken("test-token");
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  // The page shows the current user (an active query, with the app's own retries), as the dashboard does.
  client.setQueryData(meKey, {} as never);
  const hook = renderHook(() => (useQuery({ ...meQuery("test-token"), initialData: undefined }), useCreateWithdrawal()), { wrapper }).result;
  const started = Date.now();
  let answer: unknown;
  await act(async () => {
    answer = await hook.current.submit({ accountType: "USDT TRC20", accountNumber: "TA4Wt1DUCqz6YegbnsmqsWC5uUfbdBqPxm", amount: 500n });
  });
  expect(answered).toBe(true);
  expect(answer).toEqual({ msg: "Withdrawal request submitted successfully." });
  expect(Date.now() - started).toBeLessThan(REFRESH_WAIT_MS + 1_000);
}, 10_000);

test("the same input counts as a resend for RESEND_WINDOW_MS only: later it is a new action with a new key", async () => {
  const fetched = serveInTurn("network", "network", "network", 201);
  const hook = renderDeposit();
  await act(() => expect(hook.current.submit(deposit)).rejects.toMatchObject({ status: 0 }));
  const realNow = Date.now;
  Date.now = () => realNow() + RESEND_WINDOW_MS + 1;
  try {
    await act(() => hook.current.submit(deposit));
  } finally {
    Date.now = realNow;
  }
  const keys = fetched.keys();
  expect(keys[3]).toMatch(UUID);
  expect(keys[3]).not.toBe(keys[0]!);
}, 10_000);
