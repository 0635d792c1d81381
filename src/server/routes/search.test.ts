import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { throttleHits } from "../../db/schema";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";

// GET /api/user/search, the gift form's recipient search: the start of a word of a name, or a
// whole email; never a part of an email; at most 10 users; 30 searches a minute per member.
let h: Harness;
useMoneyHarness((made) => (h = made));

const search = async (token: string, text: string) => {
  const res = await h.call("GET", `/api/user/search?search=${encodeURIComponent(text)}`, { token });
  expect(res.status).toBe(200);
  return (res.body as { _id: string }[]).map((u) => u._id);
};

test("a part of an email lists no one: not '.te', not a domain, not '@x.com', not a local part", async () => {
  const me = await h.signUp();
  const tag = crypto.randomUUID().slice(0, 6);
  const members = [];
  for (let i = 0; i < 4; i++) members.push(await h.signUp({ name: `Plain Person ${tag}${i}`, email: `member${i}.tester${tag}@x.com` }));
  // Each of these is inside some email (h.signUp's are user<n>@test.local), which a "contains" search would list.
  for (const part of [".te", "test.local", "@test.local", "@x.com", "x.com", ".com", `member0.tester${tag}`, `${tag}@x.com`, "ember0", "user1@"]) {
    expect([part, await search(me.token, part)]).toEqual([part, []]);
  }
  // The whole email finds exactly its holder, in any case.
  expect(await search(me.token, `MEMBER2.TESTER${tag.toUpperCase()}@X.COM`)).toEqual([members[2]!.id]);
  expect(await search(me.token, ` member3.tester${tag}@x.com `)).toEqual([members[3]!.id]);
});

test("a name matches at the start of any of its words, not inside one", async () => {
  const me = await h.signUp();
  const tag = `Q${crypto.randomUUID().slice(0, 5)}`;
  const ada = await h.signUp({ name: `Ada ${tag}lovelace-Byron` });
  expect(await search(me.token, "ada")).toContain(ada.id);
  expect(await search(me.token, tag.toLowerCase())).toEqual([ada.id]);
  expect(await search(me.token, `Ada ${tag}`)).toEqual([ada.id]);
  expect(await search(me.token, "byron")).toContain(ada.id);
  expect(await search(me.token, `${tag.slice(1)}love`)).toEqual([]);
  expect(await search(me.token, "lovelace")).not.toContain(ada.id);
});

test("at most 10 results", async () => {
  const tag = `Crowd${crypto.randomUUID().slice(0, 5)}`;
  const me = await h.signUp();
  for (let i = 0; i < 12; i++) await h.signUp({ name: `${tag} Member` });
  expect(await search(me.token, tag)).toHaveLength(10);
});

test("30 searches a minute per member, then 429 throttled with a message; others are not slowed; the window slides", async () => {
  const me = await h.signUp();
  const other = await h.signUp();
  for (let i = 0; i < 30; i++) await search(me.token, "nobody-by-this-name");
  const refused = await h.call("GET", "/api/user/search?search=nobody", { token: me.token });
  expect(refused).toMatchObject({
    status: 429,
    body: { msg: "Too many searches (at most 30 a minute). Please wait a moment and try again.", code: "throttled" },
  });
  expect(await search(other.token, "nobody")).toEqual([]);
  // A minute later the searches have aged out (moved back in time here, as another process would see them).
  await h.db.execute(sql`UPDATE ${throttleHits} SET created_at = created_at - interval '61 seconds' WHERE key = ${me.id}`);
  expect(await search(me.token, "nobody")).toEqual([]);
});
