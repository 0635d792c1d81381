import { json, serveFetch, useDom } from "../../../testing/dom";
import { fireEvent, screen, within } from "@testing-library/react";
import { expect, test } from "bun:test";
import { makeMe, renderClient, wireMe } from "../../../testing/renderClient";
import { AdminLevelsPage } from "./AdminLevelsPage";

useDom();

const admin = makeMe({ role: "admin" });

function serve(levels: unknown, patch: () => Response = () => json({ msg: "Level updated successfully!", level: { level: 2, cost: 12.75, unfreezeCost: 0 } })) {
  return serveFetch((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return json(wireMe(admin));
    if (request.method === "PATCH") return patch();
    if (path === "/api/programs/3p/levels") return levels instanceof Response ? levels : json(levels);
    return json({ msg: "Not found." }, 404);
  });
}

async function levelForm(n: number) {
  return within(await screen.findByRole("form", { name: `Level ${n}` }));
}

test("the level editor refuses negative, missing and non-cent prices and sends nothing", async () => {
  const seen = serve([{ level: 1, cost: 5, unfreezeCost: 2.5 }]);
  renderClient(<AdminLevelsPage program="3p" />, { me: admin });
  const form = await levelForm(1);
  fireEvent.change(form.getByLabelText("Cost (USDT)"), { target: { value: "-1" } });
  fireEvent.change(form.getByLabelText("Unfreeze cost (USDT)"), { target: { value: "" } });
  fireEvent.click(form.getByRole("button", { name: "Save" }));
  expect(await form.findByText("Cost must be 0 or more.")).toBeTruthy();
  expect(form.getByText("Unfreeze cost is required.")).toBeTruthy();
  fireEvent.change(form.getByLabelText("Cost (USDT)"), { target: { value: "1.234" } });
  fireEvent.change(form.getByLabelText("Unfreeze cost (USDT)"), { target: { value: "1" } });
  fireEvent.click(form.getByRole("button", { name: "Save" }));
  expect(await form.findByText("Cost must have at most 2 decimal places.")).toBeTruthy();
  expect(seen.filter((r) => r.method === "PATCH")).toHaveLength(0);
});

test("a level edit sends both prices as decimals, zero allowed, and confirms", async () => {
  const seen = serve([{ level: 2, cost: 10, unfreezeCost: 5 }]);
  renderClient(<AdminLevelsPage program="3p" />, { me: admin });
  const form = await levelForm(2);
  fireEvent.change(form.getByLabelText("Cost (USDT)"), { target: { value: "12.75" } });
  fireEvent.change(form.getByLabelText("Unfreeze cost (USDT)"), { target: { value: "0" } });
  fireEvent.click(form.getByRole("button", { name: "Save" }));
  expect(await screen.findByText("Level updated successfully!")).toBeTruthy();
  const patch = seen.find((r) => r.method === "PATCH")!;
  expect(new URL(patch.url).pathname).toBe("/api/programs/3p/levels/2");
  // Exact decimal text, never a float.
  expect(await patch.json()).toEqual({ cost: "12.75", unfreezeCost: "0.00" });
});

test("a refused level edit without a server message says 'Failed to update level'", async () => {
  serve([{ level: 1, cost: 5, unfreezeCost: 2.5 }], () => new Response("", { status: 502 }));
  renderClient(<AdminLevelsPage program="3p" />, { me: admin });
  const form = await levelForm(1);
  fireEvent.click(form.getByRole("button", { name: "Save" }));
  expect(await screen.findByText("Failed to update level")).toBeTruthy();
});

test("the level editor says 'Failed to load levels.' or 'No levels found for this program.'", async () => {
  serve(new Response("", { status: 500 }));
  const first = renderClient(<AdminLevelsPage program="3p" />, { me: admin });
  expect(await screen.findByText("Failed to load levels.")).toBeTruthy();
  first.unmount();
  serve([]);
  renderClient(<AdminLevelsPage program="3p" />, { me: admin });
  expect(await screen.findByText("No levels found for this program.")).toBeTruthy();
});
