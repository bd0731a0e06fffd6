/**
 * `npm run bench -- vitals`: the lab Web Vitals of the admin's pages (Home, the
 * Orders list on a desktop and a phone, an order page, Anomalies, Mappings,
 * Settings, Activity, Backfill, Analytics) in headless Chromium against the
 * production build, in English and French, the pages and their data as the
 * next-action browser test sets them up: it runs that test file, alone, with
 * VITALS_OUT set, and reports what its pages measured against Shopify's
 * thresholds for a good experience (LCP 2.5 s, CLS 0.1, INP 200 ms). Nothing
 * else should run meanwhile: the browser, the server and the database share
 * the machine's cores with whatever else does.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const GOOD = { lcp: 2500, cls: 0.1, inp: 200 };
const root = join(import.meta.dirname, "..", "..", "..");
const dir = mkdtempSync(join(tmpdir(), "cod-vitals-"));
const out = join(dir, "vitals.json");

try {
  const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
  const run = spawnSync(
    process.execPath,
    [vitest, "run", "-c", "vitest.e2e.config.ts", "test/e2e/next-action.e2e.test.ts"],
    { cwd: root, env: { ...process.env, VITALS_OUT: out }, stdio: ["ignore", "ignore", "inherit"] },
  );
  if (run.status !== 0) {
    console.error(`the browser test the pages come from failed (exit ${run.status}): its measures may be partial`);
  }
  const measured = JSON.parse(readFileSync(out, "utf8")) as { where: string; lcp: number; cls: number; inp: number }[];
  const mark = (value: number, good: number, text: string) => `${text}${value <= good ? "" : " (over)"}`.padEnd(16);
  console.log(`${"page".padEnd(34)}${"LCP".padEnd(16)}${"CLS".padEnd(16)}INP`);
  for (const v of measured) {
    console.log(
      `${v.where.padEnd(34)}${mark(v.lcp, GOOD.lcp, `${v.lcp.toFixed(0)} ms`)}${mark(v.cls, GOOD.cls, v.cls.toFixed(3))}${mark(v.inp, GOOD.inp, `${v.inp.toFixed(0)} ms`)}`,
    );
  }
  const worst = (key: "lcp" | "cls" | "inp") => Math.max(...measured.map((v) => v[key]));
  console.log(
    `worst of ${measured.length} pages: LCP ${worst("lcp").toFixed(0)} ms (good ≤ ${GOOD.lcp}), ` +
      `CLS ${worst("cls").toFixed(3)} (good ≤ ${GOOD.cls}), INP ${worst("inp").toFixed(0)} ms (good ≤ ${GOOD.inp})`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
