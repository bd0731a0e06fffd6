/**
 * The environment, parsed once at start-up. Every missing or malformed variable
 * is reported in one message so a deploy fails once, not once per variable.
 */
import { existsSync } from "node:fs";
import { z } from "zod";
import { DEFAULT_DATABASE_URL, POSTGRES_URL, SQLITE_URL } from "./db/url";
import { encryptionKeyProblem } from "./crypto/secret-box.server";

// 32 random bytes: a key of the wrong size or a low-entropy one (same byte, short pattern) stops start-up.
const base64Key32 = z.string().superRefine((value, ctx) => {
  const problem = encryptionKeyProblem(value);
  if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
});

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  SHOPIFY_API_KEY: z.string().min(1, "is required (the app's client id from the Partner Dashboard)"),
  SHOPIFY_API_SECRET: z.string().min(1, "is required (the app's client secret)"),
  SHOPIFY_APP_URL: z.string().url("must be the app's public https URL"),
  SCOPES: z
    .string()
    .default(
      "read_orders,write_orders,read_products,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders",
    ),
  DATABASE_URL: z
    .string()
    .refine((url) => SQLITE_URL.test(url) || POSTGRES_URL.test(url), {
      message: "must be a SQLite URL such as file:./prisma/dev.sqlite or a PostgreSQL URL such as postgresql://user:password@host:5432/db",
    })
    .default(DEFAULT_DATABASE_URL),
  // PostgreSQL only: connections each process keeps (read by app/db/client.ts; checked here at start-up).
  DATABASE_POOL_SIZE: z.coerce.number().int("must be a whole number of connections").positive("must be at least 1").optional(),
  ENCRYPTION_KEY: base64Key32.describe("encrypts each shop's seller API key at rest"),
  // The key being rotated away from: still opens secrets until `npm run rotate-key` re-sealed them.
  ENCRYPTION_KEY_PREVIOUS: base64Key32.optional(),
  // The platform's Seller Order API base URL for shops that set none (the sandbox's in the demo).
  SELLER_API_BASE_URL: z.string().url("must be the Seller Order API base URL").optional(),
  // "true" lets a production build reach the Seller Order API over plain http on private or
  // loopback addresses (the demo's sandbox, tests). Outside production that is always allowed.
  SELLER_API_ALLOW_PRIVATE_HOSTS: z.enum(["true", "false"]).default("false"),
  SHOP_CUSTOM_DOMAIN: z.string().optional(),
  PORT: z.coerce.number().int().positive().optional(),
  // Jobs in the server process: default off in production (run `npm run worker`), on in
  // development; "true" runs them here (the demo). Read by app/queue/in-process.server.ts.
  WORKER_IN_PROCESS: z.string().optional(),
  // How far V8's heap grows past its live size before a full collection, in percent; 0 = V8's own
  // (up to 300 %). Read by app/runtime/process-memory.server.ts, checked here.
  HEAP_GROWTH_PERCENT: z.coerce.number().int("must be a whole number of percent").min(0).max(400).optional(),
  LOG_LEVEL: z.enum(["error", "warn", "info", "debug"]).default("info"),
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment, fix these variables (see .env.example):\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Pure: parses a variables record, throwing one EnvError that names every problem. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty string counts as missing: `FOO=` in a .env file is a forgotten value.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const name = issue.path.join(".");
    const message = issue.code === "invalid_type" && issue.received === "undefined" ? "is required" : issue.message;
    return `${name} ${message}`;
  });
  throw new EnvError(problems);
}

function loadDotEnv(): void {
  // Shopify CLI injects variables itself; a plain `npm start` reads .env when present.
  // process.loadEnvFile never overrides variables already set.
  if (process.env.NODE_ENV !== "test" && existsSync(".env")) process.loadEnvFile(".env");
}

loadDotEnv();
export const env: Env = parseEnv(process.env);
