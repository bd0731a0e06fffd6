/**
 * `npm run demo [-- options]`: runs the whole app locally on its embedded
 * defaults (see scripts/dev/demo/run-demo.ts and `--help`).
 */
import { UsageError } from "./lib/args";
import { OrderFileError } from "./lib/order-files";
import { BuildError } from "./lib/app-build";
import { DEMO_USAGE, parseDemoOptions } from "./demo/options";
import { PortInUseError, runDemo } from "./demo/run-demo";
import { createShutdown } from "./demo/shutdown";
import { DemoDatabaseNotEmptyError } from "./demo/database";
import { MigrationFailedError } from "../../app/db/migrations.server";
import { EmbeddedPostgresStartError } from "../lib/embedded-postgres";

let options;
try {
  options = parseDemoOptions(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof UsageError ? `${error.message}\n\n${DEMO_USAGE}` : String(error));
  process.exit(2);
}
if (options.help) {
  console.log(DEMO_USAGE);
  process.exit(0);
}

const json = options.json;
const log = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
const shutdown = createShutdown((name, error) =>
  console.error(`could not stop the ${name}: ${error instanceof Error ? error.message : String(error)}`),
);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log(
      "\nStopping the worker, the app server, the admin preview, the Shopify, Meta and TikTok stand-ins and the sandbox…",
    );
    void shutdown.run().finally(() => process.exit(0));
  });
}

try {
  await runDemo(options, { log, json: (text) => process.stdout.write(`${text}\n`) }, shutdown);
  await shutdown.run();
  process.exit(0);
} catch (error) {
  if (!stopping) {
    const expected =
      error instanceof PortInUseError ||
      error instanceof UsageError ||
      error instanceof OrderFileError ||
      error instanceof BuildError ||
      error instanceof DemoDatabaseNotEmptyError ||
      error instanceof MigrationFailedError ||
      error instanceof EmbeddedPostgresStartError;
    console.error(expected ? error.message : error);
    await shutdown.run();
    process.exit(error instanceof UsageError || error instanceof OrderFileError ? 2 : 1);
  }
}
