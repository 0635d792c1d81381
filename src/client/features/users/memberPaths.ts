import { PAGES } from "../../../shared/pages";

/**
 * A member's record, on one of its tabs (the overview when absent). Here rather than in
 * shared/pages.ts: only admin pages link to it, and that file is part of every first load.
 */
export function memberPage(id: string, tab?: string): string {
  const path = PAGES.adminMember.replace(":id", encodeURIComponent(id));
  return tab ? `${path}?tab=${encodeURIComponent(tab)}` : path;
}
