import { json, serveFetch, useDom } from "./dom";
import { render, screen } from "@testing-library/react";
import { expect, test } from "bun:test";
import { Hono } from "hono";
import { createElement } from "react";

useDom();

test("the DOM helper renders React and keeps Bun's Request/Response for app.request()", async () => {
  render(createElement("p", null, "hello"));
  expect(screen.getByText("hello").tagName).toBe("P");
  const app = new Hono().get("/ping", (c) => c.json({ ok: true }));
  const res = await app.request("/ping");
  expect(await res.json()).toEqual({ ok: true });
});

test("serveFetch answers relative fetch calls and records them", async () => {
  const seen = serveFetch(() => json({ msg: "hi" }, 201));
  const res = await fetch("/api/newsletter", { method: "POST", body: "{}" });
  expect(res.status).toBe(201);
  expect(seen[0]?.url).toBe("http://localhost:3000/api/newsletter");
});
