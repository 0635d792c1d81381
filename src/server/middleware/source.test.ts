import { expect, test } from "bun:test";
import { sourceKey } from "./source";

test("an address counts as itself for IPv4 (also mapped into IPv6) and as its /64 network for IPv6", () => {
  expect(sourceKey("203.0.113.9")).toBe("203.0.113.9");
  expect(sourceKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
  expect(sourceKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
  expect(sourceKey("2001:DB8:1:2::9")).toBe("2001:db8:1:2::/64");
  expect(sourceKey("2001:0db8:0001:0002:ffff::1")).toBe("2001:db8:1:2::/64");
  expect(sourceKey("2001:db8::")).toBe("2001:db8:0:0::/64");
  expect(sourceKey("::1")).toBe("0:0:0:0::/64");
  expect(sourceKey("64:ff9b::198.51.100.1")).toBe("64:ff9b:0:0::/64");
  // Two addresses of one /64 are one source; of two /64s, two.
  expect(sourceKey("2001:db8:a:b::1")).toBe(sourceKey("2001:db8:a:b:ffff:ffff:ffff:ffff"));
  expect(sourceKey("2001:db8:a:b::1")).not.toBe(sourceKey("2001:db8:a:c::1"));
  // Not an IPv6 address: kept as it is.
  expect(sourceKey("1:2:3")).toBe("1:2:3");
  expect(sourceKey("1::2::3")).toBe("1::2::3");
});

test("one IPv4 address written five ways is one source", () => {
  for (const written of ["203.0.113.9", "203.000.113.009", "::ffff:203.0.113.9", "::FFFF:cb00:7109", "0:0:0:0:0:ffff:203.0.113.9"]) {
    expect(sourceKey(written)).toBe("203.0.113.9");
  }
  // Not an address: counted as written, never merged with one.
  expect(sourceKey("203.0.113.256")).toBe("203.0.113.256");
});
