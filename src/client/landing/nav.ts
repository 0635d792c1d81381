/** The mobile menu button (hidden until this runs, since without JS it could not work). */
export function initMobileNav() {
  const toggle = document.querySelector<HTMLButtonElement>("[data-nav-toggle]");
  const panel = document.getElementById("mobile-nav");
  if (!toggle || !panel) return;
  const set = (open: boolean) => {
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    toggle.setAttribute("aria-label", open ? "Close menu" : "Open menu");
  };
  toggle.hidden = false;
  toggle.addEventListener("click", () => set(Boolean(panel.hidden)));
  panel.addEventListener("click", (e) => {
    if ((e.target as Element).closest("a")) set(false);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !panel.hidden) {
      set(false);
      toggle.focus();
    }
  });
}

/**
 * The scroll-to-top link is a plain #top anchor (smooth scrolling comes from CSS and honours
 * reduced motion); here it is only hidden while the top of the page is in view.
 */
export function initScrollTop() {
  const button = document.getElementById("to-top");
  if (!button) return;
  let queued = false;
  const update = () => {
    queued = false;
    button.hidden = window.scrollY < 400;
  };
  window.addEventListener(
    "scroll",
    () => {
      if (!queued) {
        queued = true;
        requestAnimationFrame(update);
      }
    },
    { passive: true },
  );
  update();
}
