/**
 * Initials avatars drawn by us (no third-party image service receives the user's name).
 * Pure functions shared by the React <Avatar> and the landing island.
 */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!].map((w) => [...w][0]) : [...(words[0] ?? "?")].slice(0, 2);
  return letters.join("").toUpperCase() || "?";
}

/** A stable pair of hues per name, kept dark enough for white initials to pass AA. */
export function avatarHues(name: string): [number, number] {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  const hue = 200 + (hash % 100); // blue through violet, the brand's range
  return [hue, hue + 40];
}

export const avatarGradient = (name: string) => avatarHues(name).map((h) => `hsl(${h} 70% 42%)`) as [string, string];

const SVG_NS = "http://www.w3.org/2000/svg";

/** The same avatar as a DOM node, for code without React. Text goes in via textContent. */
export function avatarElement(name: string, size = 36): SVGSVGElement {
  const [from, to] = avatarGradient(name);
  const id = `av-${Math.random().toString(36).slice(2, 8)}`;
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 40 40");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = `<defs><linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs><circle cx="20" cy="20" r="20" fill="url(#${id})"/><text x="20" y="20" dy=".35em" text-anchor="middle" font-size="15" font-weight="700" fill="#fff" font-family="system-ui, sans-serif"></text>`;
  svg.querySelector("text")!.textContent = initials(name);
  return svg;
}
