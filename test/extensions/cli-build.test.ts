/**
 * The extensions as Shopify will receive them: built by the real Shopify CLI
 * (`shopify app build`, offline, no login), each bundle under Shopify's 64 KB
 * compressed limit for admin UI extensions, and the generated `shopify.d.ts`
 * files exactly what the CLI writes (so the committed types are the real ones).
 * The conversion feed's web pixel is built in the same run; its size is printed.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const extensions = ["order-status-block", "order-status-action"];
const WEB_PIXEL = "conversion-pixel";
const SHOPIFY_UI_EXTENSION_LIMIT_BYTES = 64 * 1024;
const generatedTypes = (name: string) => join(root, "extensions", name, "shopify.d.ts");

let committedTypes: Record<string, string>;
let output: string;

beforeAll(async () => {
  committedTypes = Object.fromEntries(extensions.map((name) => [name, readFileSync(generatedTypes(name), "utf8")]));
  const result = await promisify(execFile)(
    join(root, "node_modules", ".bin", "shopify"),
    ["app", "build", "--skip-dependencies-installation", "--no-color"],
    {
      cwd: root,
      env: { ...process.env, SHOPIFY_CLI_NO_ANALYTICS: "1", CI: "1" },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  output = result.stdout + result.stderr;
});

describe("shopify app build", () => {
  it.each(extensions)("builds %s", (name) => {
    expect(output).toContain(`${name} successfully built`);
  });

  it.each(extensions)("keeps %s under Shopify's 64 KB compressed limit", (name) => {
    const bundle = readFileSync(join(root, "extensions", name, "dist", `${name}.js`));
    const compressed = Math.max(gzipSync(bundle, { level: 9 }).length, brotliCompressSync(bundle).length);
    expect(bundle.length).toBeGreaterThan(1000);
    expect(compressed).toBeLessThan(SHOPIFY_UI_EXTENSION_LIMIT_BYTES);
  });

  it("builds the conversion pixel (a web pixel extension) beside them, small and importing Shopify's pixel API", () => {
    expect(output).toContain(`${WEB_PIXEL} successfully built`);
    const bundle = readFileSync(join(root, "extensions", WEB_PIXEL, "dist", `${WEB_PIXEL}.js`));
    const gzipped = gzipSync(bundle, { level: 9 }).length;
    console.info(`${WEB_PIXEL}: ${bundle.length} bytes, ${gzipped} bytes gzipped`);
    // register() from @shopify/web-pixels-extension binds to Shopify's extension point.
    expect(bundle.toString("utf8")).toContain("WebPixel::Render");
    expect(gzipped).toBeLessThan(SHOPIFY_UI_EXTENSION_LIMIT_BYTES);
  });

  it.each(extensions)("leaves %s/shopify.d.ts as committed (commit the CLI's output if this fails)", (name) => {
    expect(readFileSync(generatedTypes(name), "utf8")).toBe(committedTypes[name]);
  });
});
