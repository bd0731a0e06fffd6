/**
 * Which Chromium the browser tests (and scripts/dev/docs-screenshot.ts) drive, so that `npm test` needs nothing
 * installed by hand: an explicit CHROMIUM_PATH, else a system Chromium, else the
 * one shipped inside the `@sparticuz/chromium` npm package (a Brotli-packed
 * binary it unpacks to the temp folder on first use, about 2 s).
 *
 * Playwright's own browser download cannot run offline, which is why neither
 * `npx playwright install` nor the `playwright` package is used.
 */
import { accessSync, constants } from "node:fs";

/** How it is launched: headless, offline, nothing of its own running in the background. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
/** Not "HeadlessChrome": authenticate.admin answers bots with 410. */
export const DESKTOP_CHROME_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";

export interface ChromiumChoice {
  path: string;
  source: "CHROMIUM_PATH" | "system" | "@sparticuz/chromium";
}

/** Tried in order when CHROMIUM_PATH is unset; Debian's package installs the first. */
export const SYSTEM_CHROMIUM_PATHS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome-stable",
  "/usr/bin/google-chrome",
];

export class ChromiumNotFoundError extends Error {
  override name = "ChromiumNotFoundError";
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface ChromiumLookup {
  env?: Readonly<Record<string, string | undefined>>;
  systemPaths?: readonly string[];
  /** Unpacks the packaged browser and returns its path (injectable for tests). */
  packaged?: () => Promise<string>;
}

async function unpackPackagedChromium(): Promise<string> {
  const { default: Chromium } = await import("@sparticuz/chromium");
  return Chromium.executablePath();
}

export async function resolveChromium(lookup: ChromiumLookup = {}): Promise<ChromiumChoice> {
  const env = lookup.env ?? process.env;
  const explicit = env.CHROMIUM_PATH?.trim();
  if (explicit) {
    if (!isExecutable(explicit)) {
      throw new ChromiumNotFoundError(
        `CHROMIUM_PATH=${explicit} is not an executable file. Point it at a Chromium binary, or unset it ` +
          "to use a system Chromium or the one in the @sparticuz/chromium npm package (installed by `npm install`).",
      );
    }
    return { path: explicit, source: "CHROMIUM_PATH" };
  }
  const system = (lookup.systemPaths ?? SYSTEM_CHROMIUM_PATHS).find(isExecutable);
  if (system) return { path: system, source: "system" };
  try {
    const path = await (lookup.packaged ?? unpackPackagedChromium)();
    if (!isExecutable(path)) throw new Error(`${path} is not executable after unpacking`);
    return { path, source: "@sparticuz/chromium" };
  } catch (error) {
    throw new ChromiumNotFoundError(
      "No Chromium for the browser tests: CHROMIUM_PATH is unset, none of " +
        `${(lookup.systemPaths ?? SYSTEM_CHROMIUM_PATHS).join(", ")} exists, and the @sparticuz/chromium package ` +
        `could not be unpacked (${error instanceof Error ? error.message : String(error)}). ` +
        "Run `npm install` again (it installs @sparticuz/chromium), or set CHROMIUM_PATH to a Chromium binary.",
    );
  }
}
