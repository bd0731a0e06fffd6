/** `npm run demo:screenshot` options and the demo's output it reads (pure: argv and lines in, values out). */
import { join } from "node:path";
import { parseArgs, UsageError } from "../lib/args";

const ROOT = join(import.meta.dirname, "..", "..", "..");

export const DEMO_SCREENSHOT_USAGE = `usage: npm run demo:screenshot -- [--preview URL] [--out FILE] [-- demo options]

Writes the README's picture of the admin preview (Home of the demo shop, in English, 1280 x 900):
starts \`npm run demo\` with the demo options after "--" (ports, --data-dir, --fresh), waits until its
orders have settled, takes the picture, then stops the demo.

  --preview URL   take it from a demo already running (its "Admin preview:" URL) instead
  --out FILE      where the PNG goes (default docs/demo-admin-preview.png)`;

export interface DemoScreenshotOptions {
  help: boolean;
  preview: string | null;
  out: string;
  /** Passed to `npm run demo` when no preview is given. */
  demoArgs: string[];
}

export function parseDemoScreenshotOptions(argv: readonly string[]): DemoScreenshotOptions {
  const { values, flags, positionals } = parseArgs(argv, ["preview", "out"], ["help"]);
  const preview = values.preview ?? null;
  if (preview !== null && !isLoopbackUrl(preview))
    throw new UsageError(
      `--preview must be the demo's admin preview on this machine (http://127.0.0.1:PORT/), not "${preview}"`,
    );
  if (preview !== null && positionals.length > 0)
    throw new UsageError("demo options start a demo: give them or --preview, not both");
  return {
    help: flags.has("help"),
    preview,
    out: values.out ?? join(ROOT, "docs", "demo-admin-preview.png"),
    demoArgs: positionals,
  };
}

function isLoopbackUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" && (url.hostname === "127.0.0.1" || url.hostname === "localhost");
  } catch {
    return false;
  }
}

/** The preview's URL in one line of the demo's output ("Admin preview: http://127.0.0.1:8081/"), or null. */
export function previewUrlOf(line: string): string | null {
  const match = /^Admin preview: (http:\/\/\S+)$/.exec(line.trim());
  return match ? match[1] : null;
}

/** The demo's line once every order has settled and it keeps running. */
export const isDemoReady = (line: string) => line.trim() === "Press Ctrl-C to stop.";
