import { expect, test } from "bun:test";
import { renderMigrationsModule } from "../../scripts/embed-migrations";

test("the embedded migrations match the SQL files in drizzle/", async () => {
  const folder = new URL("../../drizzle", import.meta.url).pathname;
  const current = await Bun.file(new URL("./migrations.gen.ts", import.meta.url)).text();
  expect(current).toBe(renderMigrationsModule(folder));
});
