/**
 * `npm run demo:screenshot [-- options]`: the README's picture of the admin preview
 * (docs/demo-admin-preview.png), taken from the demo's own data: Home of the demo shop
 * in the preview's frame, in English, at 1280 x 900, once its orders have settled.
 * Starts `npm run demo` (or uses a running one, --preview) and stops what it started.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { chromium } from "playwright-core";
import { UsageError } from "./lib/args";
import { CHROMIUM_ARGS, DESKTOP_CHROME_UA, resolveChromium } from "./lib/chromium-path";
import {
  DEMO_SCREENSHOT_USAGE,
  isDemoReady,
  parseDemoScreenshotOptions,
  previewUrlOf,
} from "./demo/screenshot-options";

const DEMO_SHOP = "atlas-beauty.myshopify.com";
/** The demo builds the app on its first run and replays 38 orders: minutes on a loaded 2-core machine. */
const DEMO_READY_TIMEOUT_MS = 15 * 60_000;

let options;
try {
  options = parseDemoScreenshotOptions(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof UsageError ? `${error.message}\n\n${DEMO_SCREENSHOT_USAGE}` : String(error));
  process.exit(2);
}
if (options.help) {
  console.log(DEMO_SCREENSHOT_USAGE);
  process.exit(0);
}

/** Starts the demo and resolves with its preview's URL once its orders have settled. */
function startDemo(args: string[]): { child: ChildProcess; ready: Promise<string> } {
  const root = join(import.meta.dirname, "..", "..");
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "scripts", "dev", "demo.ts"), ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const ready = new Promise<string>((resolve, reject) => {
    let preview: string | null = null;
    const timer = setTimeout(
      () => reject(new Error("the demo did not settle within 15 minutes")),
      DEMO_READY_TIMEOUT_MS,
    );
    createInterface({ input: child.stdout! }).on("line", (line) => {
      console.log(`  demo | ${line}`);
      preview = previewUrlOf(line) ?? preview;
      if (isDemoReady(line) && preview) {
        clearTimeout(timer);
        resolve(preview);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the demo stopped before it was ready (exit code ${code})`));
    });
  });
  return { child, ready };
}

async function takeScreenshot(preview: string, out: string): Promise<void> {
  const { path } = await resolveChromium();
  const browser = await chromium.launch({ executablePath: path, args: CHROMIUM_ARGS, headless: true });
  try {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      userAgent: DESKTOP_CHROME_UA,
      locale: "en",
    });
    // Offline: only the preview and the app behind it answer (the preview serves App Bridge's stand-in).
    await context.route("**/*", (route) =>
      new URL(route.request().url()).hostname === "127.0.0.1" ? route.continue() : route.abort("blockedbyclient"),
    );
    const page = await context.newPage();
    const url = new URL("/", preview);
    url.searchParams.set("shop", DEMO_SHOP);
    url.searchParams.set("locale", "en");
    await page.goto(url.href, { waitUntil: "load" });
    await page.frameLocator("#app").getByRole("heading", { level: 1 }).first().waitFor({ timeout: 120_000 });
    const frame = page.frames().find((f) => f.url().startsWith("http") && new URL(f.url()).pathname.startsWith("/app"));
    // Hydrated, no navigation pending, the charts drawn: what a merchant sees once the page has loaded.
    await frame!.waitForFunction(
      () =>
        document.readyState === "complete" &&
        (window as unknown as { __remixRouter?: { state: { navigation: { state: string } } } }).__remixRouter?.state
          .navigation.state === "idle",
      undefined,
      { timeout: 60_000 },
    );
    await page.waitForLoadState("networkidle");
    mkdirSync(dirname(out), { recursive: true });
    await page.screenshot({ path: out });
  } finally {
    await browser.close();
  }
}

let demo: ChildProcess | null = null;
try {
  let preview = options.preview;
  if (!preview) {
    const started = startDemo(options.demoArgs);
    demo = started.child;
    preview = await started.ready;
  }
  await takeScreenshot(preview, options.out);
  console.log(`Wrote ${options.out} (Home of ${DEMO_SHOP} in the admin preview, English, 1280 x 900)`);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  if (demo && demo.exitCode === null) {
    // As Ctrl-C: the demo stops its worker, servers, stand-ins and database.
    demo.kill("SIGINT");
    await once(demo, "exit");
  }
}
