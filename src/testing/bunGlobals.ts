/**
 * Bun's own web globals, as they are before any DOM exists. happy-dom's GlobalRegistrator swaps
 * in its own fetch/Request/Response/Headers/...; Hono's app.request() and Bun's own code need
 * these, so ./preload.ts and ./dom.ts put them back. The preload imports this module first, so
 * the values are taken before any DOM is registered.
 */
export const bunWebGlobals = {
  fetch: globalThis.fetch,
  Request: globalThis.Request,
  Response: globalThis.Response,
  Headers: globalThis.Headers,
  FormData: globalThis.FormData,
  AbortController: globalThis.AbortController,
  AbortSignal: globalThis.AbortSignal,
};
