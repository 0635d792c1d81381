import { initAuthMenu } from "./authMenu";
import { initMobileNav, initScrollTop } from "./nav";
import { initNewsletter } from "./newsletter";

/**
 * The landing page's only script: plain DOM code, no React, loaded as a deferred module after
 * the server-rendered page has painted. Every feature enhances markup that works without it.
 */
initMobileNav();
initScrollTop();
initNewsletter();
void initAuthMenu();
