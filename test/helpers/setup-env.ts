import { afterEach, inject } from "vitest";

// Every test process gets a complete, valid environment so importing the app
// never fails on configuration; tests that exercise env parsing pass their own.
process.env.SHOPIFY_API_KEY ||= "test-api-key";
process.env.SHOPIFY_API_SECRET ||= "test-api-secret";
process.env.SHOPIFY_APP_URL ||= "https://cod-lead-sync.test";
process.env.SCOPES ||=
  "read_orders,write_orders,read_products,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders,write_pixels,read_customer_events";
process.env.ENCRYPTION_KEY ||= "/Ar6Z1P8F8y5nUeWsA7OoDMml8SkHbRl+BzMfQUSPks=";
process.env.NODE_ENV ||= "test";

// The run's PostgreSQL server: test/helpers/db.ts makes a database per file on it;
// processes a test starts inherit it through the environment.
const postgresServerUrl = inject("postgresServerUrl");
if (postgresServerUrl) {
  process.env.TEST_POSTGRES_URL = postgresServerUrl;
  // The app's default client (app/db.server.ts) is made when first imported: a database that does not
  // exist, never one from the shell, so a test that queries it without its own (test/helpers/app.ts) says so.
  process.env.DATABASE_URL = Object.assign(new URL(postgresServerUrl), { pathname: "/no_test_database_chosen" }).href;
}

// A test that keeps its worker busy (long chaos runs, CPU-bound checks) can starve the
// worker's replies to vitest ("Timeout calling onTaskUpdate", vitest discussion 6511):
// one turn of the event loop after each test lets them through.
afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)));
