/**
 * axe-core in a real browser page: its serious and critical violations, described for a failing
 * test. The page's Content-Security-Policy stays: axe's source is evaluated through the DevTools
 * protocol, which the page's CSP does not govern (e2e/a11y.test.ts shows a planted violation is
 * found that way).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(join(import.meta.dir, "../node_modules/axe-core/axe.min.js"), "utf8");
const FAILING_IMPACTS = new Set(["serious", "critical"]);

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; html: string; failureSummary?: string }[];
}

/** The serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const all = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, html: n.html.slice(0, 200), failureSummary: n.failureSummary })),
    }));
  });
  return all.filter((v) => FAILING_IMPACTS.has(v.impact ?? ""));
}

/** Each violation with its rule and the first elements it was found at, for a test's failure. */
export function describeViolations(where: string, violations: AxeViolation[]): string {
  const lines = [`${violations.length} serious/critical accessibility violation(s) on ${where}:`];
  for (const v of violations) {
    lines.push(`  [${v.impact}] ${v.id}: ${v.help}`);
    for (const node of v.nodes.slice(0, 5)) lines.push(`      at ${node.target.join(" ")}: ${node.html}`);
  }
  return lines.join("\n");
}
