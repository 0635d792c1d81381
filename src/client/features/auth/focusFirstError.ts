/** After a refused submit, keyboard and screen-reader users land on the first field to fix. */
export function focusFirstError(form: HTMLFormElement) {
  // Wait a frame: the aria-invalid attributes are set by the render that follows.
  requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
