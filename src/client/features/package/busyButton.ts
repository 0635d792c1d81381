/**
 * A level action's button while a purchase or an unfreeze runs: it looks and acts disabled, but
 * stays focusable (aria-disabled, not disabled). The confirmation dialog gives the keyboard focus
 * back to the button that opened it while the action runs; a disabled button would drop it to the
 * page, and a refusal would leave it there.
 */
export function whileBusy(busy: boolean, action: () => void) {
  return { "aria-disabled": busy, onClick: () => void (busy || action()) };
}

/** How a busy action button looks. */
export const busyLook = (busy: boolean) => (busy ? "cursor-not-allowed opacity-60" : "");
