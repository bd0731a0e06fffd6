/**
 * `npm run bench -- NAME [args]` runs scripts/dev/bench/NAME.ts; with no name, lists them.
 * Each benchmark prints its own numbers; none is part of `npm test`.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { EmbeddedPostgresStartError } from "../lib/embedded-postgres";

const dir = join(dirname(fileURLToPath(import.meta.url)), "bench");
const available = readdirSync(dir)
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.replace(/\.ts$/, ""));
const [name, ...rest] = process.argv.slice(2);

if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <${available.join("|")}> [options]`);
  process.exit(name ? 2 : 0);
}
process.argv = [process.argv[0], join(dir, `${name}.ts`), ...rest];
// A benchmark's own process calls the loopback sandbox, and the app defaults to production (private hosts refused).
process.env.SELLER_API_ALLOW_PRIVATE_HOSTS ??= "true";
try {
  await import(pathToFileURL(join(dir, `${name}.ts`)).href);
} catch (error) {
  // A benchmark on PostgreSQL that could not start it: the one message that says why.
  if (!(error instanceof EmbeddedPostgresStartError)) throw error;
  console.error(error.message);
  process.exit(1);
}
