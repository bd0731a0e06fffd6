/**
 * `tsx scripts/dev/local-database.ts COMMAND [ARGS]` (`npm run dev` runs `shopify app dev`
 * through it): COMMAND with DATABASE_URL as set, or, when it is unset, on this machine's
 * embedded PostgreSQL (scripts/lib/local-database.ts: .data/postgres, kept between
 * runs, migrated), stopped after COMMAND exits.
 */
import { spawnSync } from "node:child_process";
import { childProcessEnv, databaseEnv } from "../../app/env.server";
import { runOnLocalDatabase } from "../lib/local-database";
import { EmbeddedPostgresStartError } from "../lib/embedded-postgres";

const [file, ...args] = process.argv.slice(2);
if (!file) {
  console.error("usage: tsx scripts/dev/local-database.ts COMMAND [ARGS]");
  process.exit(2);
}
if (databaseEnv().DATABASE_URL) {
  process.exit(spawnSync(file, args, { stdio: "inherit" }).status ?? 1);
}
try {
  process.exit(
    await runOnLocalDatabase({ file, args, env: childProcessEnv({}) }, { log: (line) => console.log(line) }),
  );
} catch (error) {
  if (!(error instanceof EmbeddedPostgresStartError)) throw error;
  console.error(error.message);
  process.exit(1);
}
