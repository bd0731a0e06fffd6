/** `npm run demo` options (pure: argv in, options or a UsageError out). */
import { parseArgs, portArg, positiveArg, UsageError } from "../lib/args";
import { POSTGRES_URL } from "../../../app/env.server";

export interface DemoOptions {
  port: number;
  sandboxPort: number;
  previewPort: number;
  /** The Shopify Admin stand-in's port. */
  shopifyAdminPort: number;
  /** The ad platforms' stand-ins' ports (Meta's Conversions API, TikTok's Events API). */
  metaPort: number;
  tiktokPort: number;
  /** undefined: the built-in set (scripts/dev/demo/orders). */
  ordersDir?: string;
  json: boolean;
  timeoutSeconds: number;
  rateLimitPerMinute: number;
  /** Where the embedded database's data folder and the logs go. */
  dataDir: string;
  /** Start the embedded database's data folder over (its earlier runs' data deleted). */
  fresh: boolean;
  /**
   * The database: "embedded" (a PostgreSQL server the demo starts, its data kept under
   * dataDir between runs; the default), or a PostgreSQL URL given by the user.
   */
  database: { kind: "embedded" } | { kind: "postgres-url"; url: string };
}

export const DEMO_USAGE = `usage: npm run demo -- [options]

  --orders DIR         replay the orders/create payloads (*.json) in DIR instead of the built-in set
  --json               print one JSON array (an object per order) once every order has settled, then exit
  --timeout SECONDS    stop waiting for orders to settle after this long (default 180)
  --port N             the app's port (default 8080)
  --sandbox-port N     the Seller Order API sandbox's port (default 4010)
  --shopify-admin-port N  the Shopify Admin API stand-in's port (default 4020)
  --meta-port N        Meta's Conversions API stand-in's port (default 4030)
  --tiktok-port N      TikTok's Events API stand-in's port (default 4031)
  --preview-port N     the admin preview's port (default: the app's port + 1)
  --rate-limit N       the sandbox's calls per minute per key (default 600; the platform's usual is 60)
  --data-dir DIR       where the demo keeps its files: the embedded PostgreSQL's data (DIR/postgres, kept
                       between runs) and the logs (default .demo)
  --fresh              start the embedded PostgreSQL's data folder over
  --database-url URL   run on this PostgreSQL database (postgresql://user:password@host:5432/db), empty or
                       already migrated by the app and holding no shop yet, instead of the embedded one`;

export function parseDemoOptions(argv: readonly string[]): DemoOptions & { help: boolean } {
  const { values, flags, positionals } = parseArgs(
    argv,
    [
      "orders",
      "timeout",
      "port",
      "sandbox-port",
      "shopify-admin-port",
      "meta-port",
      "tiktok-port",
      "preview-port",
      "rate-limit",
      "data-dir",
      "database-url",
    ],
    ["json", "help", "fresh"],
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const port = portArg(values, "port", 8080);
  const databaseUrl = values["database-url"];
  if (databaseUrl !== undefined && !POSTGRES_URL.test(databaseUrl)) {
    // Never echo the value: it may carry a password.
    throw new UsageError(
      "--database-url must be a PostgreSQL URL (postgresql://user:password@host:5432/db); without it the demo starts its own",
    );
  }
  if (databaseUrl !== undefined && flags.has("fresh"))
    throw new UsageError("--fresh starts the demo's own PostgreSQL over: give it or --database-url, not both");
  const options = {
    help: flags.has("help"),
    port,
    sandboxPort: portArg(values, "sandbox-port", 4010),
    shopifyAdminPort: portArg(values, "shopify-admin-port", 4020),
    metaPort: portArg(values, "meta-port", 4030),
    tiktokPort: portArg(values, "tiktok-port", 4031),
    previewPort: portArg(values, "preview-port", port === 65535 ? 65534 : port + 1),
    json: flags.has("json"),
    timeoutSeconds: positiveArg(values, "timeout", 180),
    rateLimitPerMinute: Math.floor(positiveArg(values, "rate-limit", 600)),
    dataDir: values["data-dir"] ?? ".demo",
    fresh: flags.has("fresh"),
    database:
      databaseUrl !== undefined
        ? ({ kind: "postgres-url", url: databaseUrl } as const)
        : ({ kind: "embedded" } as const),
    ...(values.orders !== undefined ? { ordersDir: values.orders } : {}),
  };
  const ports = [
    ["--port", options.port],
    ["--sandbox-port", options.sandboxPort],
    ["--shopify-admin-port", options.shopifyAdminPort],
    ["--meta-port", options.metaPort],
    ["--tiktok-port", options.tiktokPort],
    ...(options.json ? [] : [["--preview-port", options.previewPort] as const]),
  ] as const;
  for (let i = 0; i < ports.length; i++) {
    for (let j = i + 1; j < ports.length; j++) {
      if (ports[i][1] === ports[j][1])
        throw new UsageError(`${ports[i][0]} and ${ports[j][0]} are both ${ports[i][1]}: choose two ports`);
    }
  }
  return options;
}
