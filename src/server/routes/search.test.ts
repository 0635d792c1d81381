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

/** Results in a fixed order (the answer's is by name, which depends on the database's collation). */
const byId = <T extends { _id: string }>(rows: T[]) => [...rows].sort((a, b) => a._id.localeCompare(b._id));

test("a name match shows each email masked (first character, ***, the whole domain); the whole email typed shows it whole", async () => {
  const me = await h.signUp();
  const tag = `Mask${crypto.randomUUID().slice(0, 5)}`;
  const alice = await h.signUp({ name: `${tag} Alice`, email: `Alice.${tag}@Example.com` });
  const bob = await h.signUp({ name: `${tag} Bob`, email: `b@${tag}.test` });
  const byName = await h.call("GET", `/api/user/search?search=${tag}`, { token: me.token });
  expect(byId(byName.body)).toEqual(
    byId([
      { _id: alice.id, name: `${tag} Alice`, email: "A***@Example.com" },
      { _id: bob.id, name: `${tag} Bob`, email: `b***@${tag}.test` },
    ]),
  );
  // No address anyone typed only part of: no answer to a name carries a whole one.
  expect(JSON.stringify(byName.body)).not.toContain(alice.email);
  // The whole email, in any case: that member, with their email as kept.
  const byEmail = await h.call("GET", `/api/user/search?search=${encodeURIComponent(`alice.${tag}@example.COM`)}`, { token: me.token });
  expect(byEmail.body).toEqual([{ _id: alice.id, name: `${tag} Alice`, email: `Alice.${tag}@Example.com` }]);
  // A name that happens to read like an email is still masked unless it is that member's own email.
  const lookalike = await h.signUp({ name: `b@${tag}.test`, email: `other-${tag}@test.local` });
  const both = await h.call("GET", `/api/user/search?search=${encodeURIComponent(`b@${tag}.test`)}`, { token: me.token });
  expect(byId(both.body)).toEqual(
    byId([
      { _id: bob.id, name: `${tag} Bob`, email: `b@${tag}.test` },
      { _id: lookalike.id, name: `b@${tag}.test`, email: "o***@test.local" },
    ]),
  );
});
