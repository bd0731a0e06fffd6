/**
 * The environment: every variable the app and its processes read, with its
 * default, in one zod schema. Nothing else in app/ or the entry points reads
 * process.env. Every missing or malformed variable is reported in one message,
 * so a deploy fails once, not once per variable, and a typo never falls back
 * to a default silently.
 *
 * The schema is made of parts, so that a process that needs only one (the
 * migration runner needs the database, the worker no Shopify page) parses only
 * that part; `env` is the whole, parsed on first use.
 *
 * Production unless told otherwise: NODE_ENV defaults to production here, once,
 * for every process (server, worker, ops scripts, and any entry point added
 * later: each imports this module before it reads a setting). Development and
 * tests say so (Vite's dev server, vitest), so the address guard, the JSON log
 * and the worker's placement fail closed.
 */
import { existsSync } from "node:fs";
import { z } from "zod";
import { encryptionKeyProblem, secretBoxFromVariables, type SecretBox } from "./crypto/secret-box.server";

// 32 random bytes: a key of the wrong size or a low-entropy one (same byte, short pattern) stops start-up.
const base64Key32 = z.string().superRefine((value, ctx) => {
  const problem = encryptionKeyProblem(value);
  if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
});
const flag = z
  .string()
  .transform((value) => value.trim().toLowerCase())
  .pipe(z.enum(["true", "false", "1", "0", "yes", "no", "on", "off"], { message: "must be true or false" }))
  .transform((value) => value === "true" || value === "1" || value === "yes" || value === "on");
const milliseconds = (what: string) =>
  z.coerce.number().int(`must be a whole number of milliseconds (${what})`).positive("must be above 0");

const processPart = {
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().positive().default(3000),
  // Binds one address; all of them when unset.
  HOST: z.string().optional(),
  // How far V8's heap grows past its live size before a full collection, in percent; 0 = V8's own (up to 300 %).
  HEAP_GROWTH_PERCENT: z.coerce.number().int("must be a whole number of percent").min(0).max(400).default(50),
  LOG_LEVEL: z.enum(["error", "warn", "info", "debug"]).default("info"),
  // json (one object a line) or pretty (for a person at a terminal); default pretty in development only.
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  // Prometheus metrics (and /healthz, /readyz) on a listener of their own: unset = none; 0 = any free port.
  METRICS_PORT: z.coerce.number().int("must be a whole port number").min(0).max(65535).optional(),
  // The address that listener binds: loopback unless the operator opens it to their scraper.
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  // When set, GET /metrics on the app's own port answers a request bearing it (Authorization: Bearer ...); also required on METRICS_PORT.
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  // Queue depth, oldest due job and paused shops read from the database at each scrape (cached 5 s).
  METRICS_DATABASE_GAUGES: flag.default("true"),
};

const shopifyPart = {
  SHOPIFY_API_KEY: z.string().min(1, "is required (the app's client id from the Partner Dashboard)"),
  SHOPIFY_API_SECRET: z.string().min(1, "is required (the app's client secret)"),
  SHOPIFY_APP_URL: z.string().url("must be the app's public https URL"),
  SCOPES: z
    .string()
    .default(
      "read_orders,write_orders,read_products,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders,write_pixels,read_customer_events",
    ),
  SHOP_CUSTOM_DOMAIN: z.string().optional(),
  // true also accepts the pseudo-locales en-XA and ar-XB (app/i18n/pseudo.ts) as `locale`: tests and developers only.
  PSEUDO_LOCALES: flag.default("false"),
};

export const POSTGRES_URL = /^postgres(ql)?:\/\//i;

const databasePart = {
  // Unset: `npm start`, `npm run dev`, the demo and the tests start an embedded PostgreSQL and set it.
  DATABASE_URL: z
    .string()
    .refine((url) => POSTGRES_URL.test(url), {
      // Never the URL itself: it can carry a password.
      message: "must be a PostgreSQL URL such as postgresql://user:password@host:5432/db",
    })
    .optional(),
  // Connections each process keeps; web servers x workers x this must fit max_connections.
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int("must be a whole number of connections")
    .positive("must be at least 1")
    .default(10),
};

const encryptionPart = {
  ENCRYPTION_KEY: base64Key32.describe("encrypts each shop's secrets at rest"),
  // The key being rotated away from: still opens secrets until `npm run rotate-key` re-sealed them.
  ENCRYPTION_KEY_PREVIOUS: base64Key32.optional(),
};

const sellerApiPart = {
  // The platform's Seller Order API base URL for shops that set none (the sandbox's in the demo).
  SELLER_API_BASE_URL: z.string().url("must be the Seller Order API base URL").optional(),
  // true lets a production build reach the Seller Order API over plain http on private or
  // loopback addresses (the demo's sandbox, tests). Outside production that is always allowed.
  SELLER_API_ALLOW_PRIVATE_HOSTS: flag.default("false"),
  // Per-attempt timeout of the calls jobs make.
  SELLER_API_TIMEOUT_MS: milliseconds("per attempt").default(15_000),
  // How long jobs trust the rate limit read from GET /v1/me.
  SELLER_API_RATE_REFRESH_MS: milliseconds("how long a rate read is trusted").default(60_000),
};

const adPlatformsPart = {
  // The conversion feed's addresses: Meta's Graph API and TikTok's Business API in production,
  // the stand-ins (ads-stand-in/) in tests, the demo and the benchmark.
  META_API_BASE_URL: z.string().url("must be the Graph API's base URL").default("https://graph.facebook.com"),
  TIKTOK_API_BASE_URL: z
    .string()
    .url("must be TikTok's Business API base URL")
    .default("https://business-api.tiktok.com"),
  // true lets a production build reach them over http or on private or loopback addresses (the stand-ins).
  AD_API_ALLOW_PRIVATE_HOSTS: flag.default("false"),
  // Per-attempt timeout of the feed's calls.
  AD_API_TIMEOUT_MS: milliseconds("per attempt").default(15_000),
};

const workerPart = {
  // Jobs in the server process: unset means off in production (run `npm run worker`), on otherwise.
  WORKER_IN_PROCESS: flag.optional(),
  // Jobs one worker runs at once: posts overlap their HTTP round trips.
  WORKER_CONCURRENCY: z.coerce
    .number()
    .int("must be a whole number of jobs")
    .min(1, "must be at least 1")
    .max(64, "must be at most 64")
    .default(4),
  // How long a crashed worker's job stays claimed.
  WORKER_LEASE_MS: milliseconds("a claim's lease").default(60_000),
  // On SIGTERM, how long running jobs may finish before they are released.
  WORKER_STOP_TIMEOUT_MS: milliseconds("how long SIGTERM waits").default(30_000),
  // One shop's jobs of one kind running at once across all workers (0 = no cap).
  WORKER_MAX_RUNNING_PER_SHOP: z.coerce.number().int("must be a whole number of jobs").min(0).default(2),
};

const reconcilePart = {
  // How often each shop's orders are compared with Shopify's (the published promise's "within the interval").
  RECONCILE_INTERVAL_SECONDS: z.coerce
    .number()
    .int("must be a whole number of seconds")
    .min(1, "must be at least 1")
    .max(3600, "must be at most 3600")
    .default(300),
  // After an install or a pause, how far back the first pass takes in orders it never received.
  RECONCILE_MAX_GAP_HOURS: z.coerce
    .number()
    .int("must be a whole number of hours")
    .min(1)
    .max(24 * 60)
    .default(168),
  // An order not accounted for after this long is stuck: the Home alert and the "Order stuck" Flow trigger.
  SYNC_STUCK_MINUTES: z.coerce
    .number()
    .int("must be a whole number of minutes")
    .min(1)
    .max(24 * 60)
    .default(30),
};

export const envSchema = z.object({
  ...processPart,
  ...shopifyPart,
  ...databasePart,
  ...encryptionPart,
  ...sellerApiPart,
  ...adPlatformsPart,
  ...workerPart,
  ...reconcilePart,
});

export type Env = z.infer<typeof envSchema>;
export type ProcessEnv = Pick<Env, keyof typeof processPart>;
export type DatabaseEnv = Pick<Env, keyof typeof databasePart>;
export type SellerApiEnv = Pick<Env, keyof typeof sellerApiPart | "NODE_ENV">;
export type WorkerEnv = Pick<Env, keyof typeof workerPart | "NODE_ENV">;
export type AdPlatformsEnv = Pick<Env, keyof typeof adPlatformsPart | "NODE_ENV">;
export type ReconcileEnv = Pick<Env, keyof typeof reconcilePart>;

type Source = Record<string, string | undefined>;

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Invalid environment, fix these variables (see .env.example):\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
    this.name = "EnvError";
  }
}

function parseWith<T extends z.ZodRawShape>(shape: T, source: Source): z.infer<z.ZodObject<T>> {
  // An empty string counts as missing: `FOO=` in a .env file is a forgotten value.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = z.object(shape).safeParse(cleaned);
  if (parsed.success) return parsed.data;
  throw new EnvError(
    parsed.error.issues.map((issue) => {
      const message = issue.code === "invalid_type" && issue.received === "undefined" ? "is required" : issue.message;
      return `${issue.path.join(".")} ${message}`;
    }),
  );
}

/** Pure: parses a variables record, throwing one EnvError that names every problem. */
export const parseEnv = (source: Source): Env => parseWith(envSchema.shape, source);
export const parseProcessEnv = (source: Source): ProcessEnv => parseWith(processPart, source);
export const parseDatabaseEnv = (source: Source): DatabaseEnv => parseWith(databasePart, source);
export const parseSellerApiEnv = (source: Source): SellerApiEnv =>
  parseWith({ ...sellerApiPart, NODE_ENV: processPart.NODE_ENV }, source);
export const parseWorkerEnv = (source: Source): WorkerEnv =>
  parseWith({ ...workerPart, NODE_ENV: processPart.NODE_ENV }, source);
export const parseAdPlatformsEnv = (source: Source): AdPlatformsEnv =>
  parseWith({ ...adPlatformsPart, NODE_ENV: processPart.NODE_ENV }, source);
export const parseReconcileEnv = (source: Source): ReconcileEnv => parseWith(reconcilePart, source);

let dotEnvRead = false;
function variables(): Source {
  // Shopify CLI injects variables itself; a plain `npm start` reads .env when present.
  // process.loadEnvFile never overrides variables already set.
  if (!dotEnvRead && process.env.NODE_ENV !== "test" && existsSync(".env")) process.loadEnvFile(".env");
  dotEnvRead = true;
  return process.env;
}

// Set in process.env too, after .env (which may say otherwise), before anything renders:
// React and Remix read process.env.NODE_ENV themselves.
if (!variables().NODE_ENV) process.env.NODE_ENV = "production";

/** A part parsed again only when one of its variables changed (tests stub them; a process never does). */
function cached<T>(shape: z.ZodRawShape, parse: (source: Source) => T): () => T {
  const names = Object.keys(shape);
  let seen: string | undefined;
  let value: T | undefined;
  return () => {
    const source = variables();
    const key = names.map((name) => source[name] ?? "\u0000").join("\u0001");
    if (key !== seen || value === undefined) {
      value = parse(source);
      seen = key;
    }
    return value;
  };
}

export const processEnv = cached(processPart, parseProcessEnv);
export const databaseEnv = cached(databasePart, parseDatabaseEnv);

/** DATABASE_URL, for a process that only connects: an EnvError when unset. */
export function databaseUrl(): string {
  const url = databaseEnv().DATABASE_URL;
  if (url) return url;
  throw new EnvError([
    "DATABASE_URL is required (postgresql://user:password@host:5432/db): only `npm start`, `npm run dev` and `npm run demo` start an embedded PostgreSQL without it",
  ]);
}
export const sellerApiEnv = cached({ ...sellerApiPart, NODE_ENV: processPart.NODE_ENV }, parseSellerApiEnv);
export const workerEnv = cached({ ...workerPart, NODE_ENV: processPart.NODE_ENV }, parseWorkerEnv);
export const reconcileEnv = cached(reconcilePart, parseReconcileEnv);
export const adPlatformsEnv = cached({ ...adPlatformsPart, NODE_ENV: processPart.NODE_ENV }, parseAdPlatformsEnv);
const wholeEnv = cached(envSchema.shape, parseEnv);

/** The whole environment, parsed (and checked) on first use. */
export const env: Env = new Proxy({} as Env, { get: (_, name) => wholeEnv()[name as keyof Env] });

/** The app's secret box, under ENCRYPTION_KEY (and ENCRYPTION_KEY_PREVIOUS while rotating). */
export function secretBoxFromEnv(): SecretBox {
  const keys = parseWith(encryptionPart, variables());
  return secretBoxFromVariables(keys);
}

/** This process's environment with some variables replaced, for a child process it starts. */
export function childProcessEnv(overrides: Source): NodeJS.ProcessEnv {
  return { ...variables(), ...overrides } as NodeJS.ProcessEnv;
}
