import { setDefaultTimeout } from "bun:test";

// A fresh embedded database takes a second or two; the first one in a process more.
setDefaultTimeout(60_000);
