import { describe, expect, test } from "bun:test";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";

let h: Harness;
useMoneyHarness((made) => (h = made));

const levels = async (program: string) => (await h.call("GET", `/api/programs/${program}/levels`)).body;
const patch = (path: string, body: unknown, token = h.adminToken) => h.call("PATCH", `/api/programs/${path}`, { token, body });

describe("GET /api/programs/{program}/levels", () => {
  test("GET /api/programs/{3p|6p}/levels answers 12 levels at 5 x 2^(n-1) USDT, unfreezing at half, to anyone", async () => {
    for (const program of ["3p", "6p"]) {
      const res = await h.call("GET", `/api/programs/${program}/levels`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        Array.from({ length: 12 }, (_, i) => ({ level: i + 1, cost: 5 * 2 ** i, unfreezeCost: (5 * 2 ** i) / 2 })),
      );
    }
  });

  test("GET /api/programs/{program}/levels answers 404 for an unknown program", async () => {
    expect(await h.call("GET", "/api/programs/9p/levels")).toMatchObject({ status: 404, body: { msg: "Program not found." } });
  });
});

describe("PATCH /api/programs/{program}/levels/{level}", () => {
  test("PATCH /api/programs/{program}/levels/{level} changes one level's prices in one program", async () => {
    const before6p = await levels("6p");
    const res = await patch("3p/levels/2", { cost: "7.50", unfreezeCost: 3.25 });
    expect(res).toMatchObject({ status: 200, body: { msg: "Level updated successfully!", level: { level: 2, cost: 7.5, unfreezeCost: 3.25 } } });
    const after = await levels("3p");
    expect(after[1]).toEqual({ level: 2, cost: 7.5, unfreezeCost: 3.25 });
    expect(after[0]).toEqual({ level: 1, cost: 5, unfreezeCost: 2.5 });
    expect(after[2]).toEqual({ level: 3, cost: 20, unfreezeCost: 10 });
    expect(await levels("6p")).toEqual(before6p);
  });

  test("PATCH /api/programs/{program}/levels/{level} accepts a price of 0", async () => {
    expect((await patch("6p/levels/12", { cost: 0, unfreezeCost: "0.00" })).status).toBe(200);
    expect((await levels("6p"))[11]).toEqual({ level: 12, cost: 0, unfreezeCost: 0 });
  });

  test("PATCH /api/programs/{program}/levels/{level} answers 404 for an unknown program or level", async () => {
    for (const path of ["9p/levels/1", "3p/levels/13", "3p/levels/0", "3p/levels/abc", "3p/levels/1.5", "3p/levels/-1"]) {
      const res = await patch(path, { cost: 1, unfreezeCost: 1 });
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(["Program not found.", "Level not found."]).toContain(res.body.msg);
    }
  });

  test("PATCH /api/programs/{program}/levels/{level} refuses negative, over-precise or missing prices", async () => {
    const cases: [unknown, string][] = [
      [{ cost: -1, unfreezeCost: 1 }, "Cost must be 0 or more."],
      [{ cost: 1, unfreezeCost: "-0.5" }, "Unfreeze cost must be 0 or more."],
      [{ cost: 1.234, unfreezeCost: 1 }, "Cost must have at most 2 decimal places."],
      [{ cost: "cheap", unfreezeCost: 1 }, "Cost must be a number."],
      [{ unfreezeCost: 1 }, "Cost is required."],
      [{ cost: 1 }, "Unfreeze cost is required."],
    ];
    for (const [body, msg] of cases) {
      const res = await patch("3p/levels/5", body);
      expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 400, answer: { msg, code: "validation" } });
    }
    expect((await levels("3p"))[4]).toEqual({ level: 5, cost: 80, unfreezeCost: 40 });
  });

  test("PATCH /api/programs/{program}/levels/{level} is for admins only", async () => {
    const user = await h.signUp();
    expect(await patch("3p/levels/4", { cost: 1, unfreezeCost: 1 }, user.token)).toMatchObject({
      status: 403,
      body: { msg: "Access denied. Admins only.", code: "forbidden" },
    });
    expect(await h.call("PATCH", "/api/programs/3p/levels/4", { body: { cost: 1, unfreezeCost: 1 } })).toMatchObject({
      status: 401,
      body: { msg: "No token, authorization denied", code: "no_token" },
    });
    expect((await levels("3p"))[3]).toEqual({ level: 4, cost: 40, unfreezeCost: 20 });
  });
});
