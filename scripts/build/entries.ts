/**
 * The process entry points production runs, built to JavaScript beside the Remix build:
 * build/server.js (`npm start`), build/worker.js (`npm run worker`) and build/ops/<name>.js
 * for each script of scripts/ops/. Each is one ES module bundling the app code it
 * imports; packages stay imports of node_modules, as in the Remix server build, so the
 * entry and the build it loads share one copy of each library. No TypeScript loader runs
 * in production.
 */
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build, type Plugin } from "esbuild";

/** A package's JSON (Polaris's locales) is data: bundled, since Node imports JSON only with an import attribute. */
const packageJsonData: Plugin = {
  name: "package-json-data",
  setup(builder) {
    builder.onResolve({ filter: /^[^./].*\.json$/ }, (args) => ({
      path: createRequire(join(args.resolveDir, "noop.js")).resolve(args.path),
    }));
  },
};

/** Entry name (its path under build/, without .js) -> its source, relative to the repository. */
export function entryPoints(root: string): Record<string, string> {
  const ops = readdirSync(join(root, "scripts", "ops")).filter((f) => f.endsWith(".ts"));
  return {
    server: "server.ts",
    worker: "worker.ts",
    ...Object.fromEntries(ops.map((f) => [`ops/${f.replace(/\.ts$/, "")}`, `scripts/ops/${f}`])),
  };
}

/** Builds every entry point into `outDir` (default build/ of the repository). */
export async function buildEntries(root: string, outDir = join(root, "build")): Promise<string[]> {
  const entries = entryPoints(root);
  await build({
    absWorkingDir: root,
    entryPoints: entries,
    outdir: outDir,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    packages: "external",
    plugins: [packageJsonData],
    logLevel: "warning",
  });
  return Object.keys(entries).map((name) => join(outDir, `${name}.js`));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = join(import.meta.dirname, "..", "..");
  const built = await buildEntries(root);
  console.log(`built ${built.map((path) => path.slice(root.length + 1)).join(", ")}`);
}
