/**
 * axe-core in a page or frame: the violations, of any impact, as "impact rule: targets". The browser tests expect
 * none. `rules: "wcag"` (the default) runs WCAG 2.0/2.1 A and AA; `"all"` adds axe's best practices; `within`
 * limits the run to the parts named.
 */
import { createRequire } from "node:module";
import type { Frame, Page } from "playwright-core";

const AXE_SOURCE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

export interface AxeScope {
  within?: string | string[];
  rules?: "wcag" | "all";
}

export async function axeViolations(target: Page | Frame, scope: AxeScope = {}): Promise<string[]> {
  if (!(await target.evaluate(() => "axe" in window))) await target.addScriptTag({ path: AXE_SOURCE });
  const within = scope.within === undefined ? null : ([] as string[]).concat(scope.within);
  const wcagOnly = (scope.rules ?? "wcag") === "wcag";
  return target.evaluate(
    async ({ within, wcagOnly }) => {
      const axe = (
        window as unknown as {
          axe: {
            run(
              context: unknown,
              options: unknown,
            ): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
          };
        }
      ).axe;
      const context = within ? { include: within.map((selector) => [selector]) } : document;
      const options = wcagOnly
        ? { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } }
        : {};
      const result = await axe.run(context, options);
      return result.violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    },
    { within, wcagOnly },
  );
}
