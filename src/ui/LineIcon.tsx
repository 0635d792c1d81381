import type { SVGProps } from "react";

/**
 * The frame of every line icon we draw (dashboard, menus and the server-rendered landing page):
 * a 24-unit box stroked in the current text colour, sized to the font. Decorative by default:
 * the text or label beside it names it.
 */
export function LineIcon({ children, strokeWidth = 1.8, ...props }: SVGProps<SVGSVGElement>) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}
