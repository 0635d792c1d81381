import { afterEach } from "bun:test";
import Swal from "sweetalert2";

/** sweetalert2's delay before it gives the focus back to what had it before a dialog. */
const FOCUS_RETURN_MS = 100;

/**
 * For the component tests of a file whose pages open sweetalert2 dialogs: after each test, any
 * dialog is closed and removed (it lives in document.body, outside what Testing Library cleans
 * up), and sweetalert2's focus return is waited for. sweetalert2 remembers the element to give
 * the focus back to until that return runs; a dialog opened before it (the next test's) would
 * keep the old test's element, long gone, and give the focus to the page instead.
 */
export function closeDialogsAfterEach() {
  afterEach(async () => {
    Swal.close();
    for (const node of document.querySelectorAll(".swal2-container")) node.remove();
    await new Promise((resolve) => setTimeout(resolve, FOCUS_RETURN_MS + 20));
  });
}
