import { describe, expect, test } from "bun:test";
import { compactCss, elementsOf, PAGE_CSS, sourcesOf } from "./css";

// compactCss rewrites UnoCSS's output; each case is a shape that output takes. Whether the
// landing still renders the same with it is e2e/landingLook.test.ts's.

describe("compactCss", () => {
  test("theme variables and unset wind4 variables are written in place; colours mixed with transparent become plain colours", () => {
    const css = [
      ":root, :host { --colors-panel-DEFAULT: #1e293b; --spacing: 0.25rem; --default-font-family: var(--font-sans); --font-sans: system-ui, sans-serif; }",
      "@property --un-text-opacity{syntax:\"<percentage>\";inherits:false;initial-value:100%;}",
      "@property --un-backdrop-blur{syntax:\"*\";inherits:false;}",
      "html{font-family:var( --default-font-family, sans-serif );}",
      ".text-panel{color:color-mix(in srgb, var(--colors-panel-DEFAULT) var(--un-text-opacity), transparent);}",
      ".bg-panel\\/70{background-color:color-mix(in srgb, var(--colors-panel-DEFAULT) 70%, transparent);}",
      ".p-4{padding:calc(var(--spacing) * 4);}",
      ".blur{filter:var(--un-backdrop-blur,) blur(2px);}",
    ].join("");
    expect(compactCss(css)).toBe(
      "html{font-family:system-ui,sans-serif}.text-panel{color:#1e293b}.bg-panel\\/70{background-color:rgb(30 41 59/.7)}.p-4{padding:1rem}.blur{filter:blur(2px)}",
    );
    // A value nothing would be left of keeps its var(): empty, the declaration would not parse.
    expect(compactCss("@property --un-blur{syntax:\"*\";inherits:false;}.f{filter:var(--un-blur,);}")).toBe('@property --un-blur{syntax:"*";inherits:false}.f{filter:var(--un-blur,)}');
  });

  test("a variable some rule sets stays a variable, with its @property and default", () => {
    const css = [
      "@supports ((-webkit-hyphens: none) and (not (margin-trim: inline))) or ((-moz-orient: inline) and (not (color:rgb(from red r g b)))){*, ::before, ::after, ::backdrop{--un-leading:initial;--un-text-opacity:100%;}}",
      "@property --un-leading{syntax:\"*\";inherits:false;}",
      "@property --un-text-opacity{syntax:\"<percentage>\";inherits:false;initial-value:100%;}",
      ".text-sm{font-size:0.875rem;line-height:var(--un-leading, 1.25rem);}",
      ".leading-none{--un-leading:1;line-height:1;}",
    ].join("");
    expect(compactCss(css)).toBe(
      "@supports ((-webkit-hyphens: none) and (not (margin-trim: inline))) or ((-moz-orient: inline) and (not (color:rgb(from red r g b)))){*,::before,::after,::backdrop{--un-leading:initial}}" +
        '@property --un-leading{syntax:"*";inherits:false}.text-sm{font-size:.875rem;line-height:var(--un-leading,1.25rem)}.leading-none{--un-leading:1;line-height:1}',
    );
  });

  test("a declaration a later one always overrides goes, then the variables nothing reads", () => {
    const css = ".btn:focus-visible{outline-style:var(--un-outline-style);outline-width:2px;--un-outline-style:solid;outline-style:solid;--un-font-weight:600;font-weight:600;}";
    expect(compactCss(css)).toBe(".btn:focus-visible{outline-width:2px;outline-style:solid;font-weight:600}");
    // A later value a browser might not parse is a fallback pair: both stay.
    expect(compactCss(".h{height:100vh;height:100dvh;}")).toBe(".h{height:100vh;height:100dvh}");
  });

  test("the Oklab restatement of theme colours goes, at any depth", () => {
    const css = ".text-fg{color:#f8fafc;}@supports (color: color-mix(in lab, red, red)){.text-fg{color:color-mix(in oklab, #f8fafc 100%, transparent);}}@media (min-width: 48rem){.md\\:text-fg{color:#f8fafc;}@supports (color: color-mix(in lab, red, red)){.md\\:text-fg{color:red;}}}";
    expect(compactCss(css)).toBe(".text-fg{color:#f8fafc}@media (min-width: 48rem){.md\\:text-fg{color:#f8fafc}}");
  });

  test("rules with the same declarations merge only when nothing between them sets those properties, and with the same pseudo-classes", () => {
    const css = ".a:focus-visible{outline-width:2px;}.b:focus-visible{outline-width:2px;}.c{color:red;}.d:focus-visible{outline-width:2px;}.e{outline-width:1px;}.f:focus-visible{outline-width:2px;}.g{outline-width:2px;}";
    expect(compactCss(css)).toBe(".a:focus-visible,.b:focus-visible,.d:focus-visible{outline-width:2px}.c{color:red}.e{outline-width:1px}.f:focus-visible{outline-width:2px}.g{outline-width:2px}");
  });

  test("keyframes no animation names go; with the page's elements, selectors of other elements go", () => {
    const css = "@keyframes spin{to{transform:rotate(360deg)}}@keyframes fade-in{from{opacity:0}}.animate-fade{animation:fade-in 200ms ease-out;}hr{height:0;}img,svg,video{display:block;}abbr:where([title]){text-decoration:underline dotted;}::placeholder{opacity:1;}.x{color:red;}";
    expect(compactCss(css, { elements: new Set(["html", "body", "svg"]) })).toBe(
      "@keyframes fade-in{from{opacity:0}}.animate-fade{animation:fade-in 200ms ease-out}svg{display:block}::placeholder{opacity:1}.x{color:red}",
    );
  });
});

describe("the page sources", () => {
  test("the landing's are what it imports under src/client, src/ui and src/server/web: not the dashboard's, not the server's", async () => {
    const files = await sourcesOf(PAGE_CSS.landing);
    expect(files).toContain("src/server/web/landing/Hero.tsx");
    expect(files).toContain("src/server/web/SiteFooter.tsx");
    expect(files).toContain("src/ui/siteIcons.tsx");
    expect(files).toContain("src/client/landing/toast.ts");
    expect(files.some((f) => f.startsWith("src/client/features/") || f.startsWith("src/core/"))).toBe(false);
    expect(files).not.toContain("src/server/web/howItWorks/HowItWorksPage.tsx");
  });

  test("the elements a page can have: its JSX tags and the ones its island creates", async () => {
    const elements = await elementsOf(await sourcesOf(PAGE_CSS.landing));
    for (const name of ["header", "footer", "svg", "polygon", "form", "input", "dialog", "address"]) expect(elements).toContain(name);
    for (const name of ["table", "hr", "textarea", "select"]) expect(elements).not.toContain(name);
  });
});
