/**
 * Shopify Admin stand-in: the Admin GraphQL API the app uses (validated against the real
 * 2026-07 schema, Shopify's cost model and leaky bucket per shop), the OAuth token
 * endpoint (token exchange, refresh) and a loopback-only control API, on loopback.
 *
 *   const admin = await startShopifyAdmin({ port: 0, app: { apiKey, apiSecret, scopes } });
 *   await admin.installFetchRewrite();        // @shopify/shopify-api now calls it
 *   admin.shop("demo.myshopify.com", demoWorld({ nowMs: Date.now() }));
 *   await admin.close();
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { GraphQLSchema } from "graphql";
import type { ShopifyPlan } from "./bucket";
import { createClock, type StandInClock } from "./clock";
import { FaultRegistry } from "./faults";
import { FlowRegistry, type FlowDefinitions } from "./flow";
import { installFetchRewrite, type FetchRewrite } from "./fetch-rewrite";
import { InstallationRegistry } from "./installations";
import type { OrderInit, OrderRecord } from "./records";
import { fieldResolverFor } from "./resolvers";
import { loadAdminSchema } from "./schema";
import { createStandInServer, type StandInRuntime } from "./server";
import { ShopStore, type CallRecord, type ShopState, type ShopWorld } from "./store";
import type { AppCredentials } from "./token-exchange";
import { WebhookDeliveries } from "./webhooks";

export { ADMIN_SCHEMA_PATH, API_VERSION, loadAdminSchema } from "./schema";
export { actualQueryCost, estimateQueryCost, MAX_QUERY_COST, MUTATION_COST } from "./cost";
export { BUCKET_SIZE, LeakyBucket, PLAN_LIMITS, RESTORE_RATE, type ShopifyPlan } from "./bucket";
export { fulfillmentOrderRecord, orderRecord, variantRecord } from "./records";
export type {
  FulfillmentOrderRecord,
  MutationName,
  OrderInit,
  OrderRecord,
  ProductRecord,
  ProductVariantRecord,
  UserError,
} from "./records";
export type { CallRecord, ShopState, ShopWorld } from "./store";
export type { FaultInput, FaultKind, FaultRule } from "./faults";
export { FAULT_KINDS } from "./faults";
export { demoCatalogue, demoWorld, DEMO_DAYS, DEMO_ORDER_COUNT, DEMO_SEED } from "./demo-world";
export { signSessionToken, verifySessionToken, InvalidSessionTokenError } from "./session-token";
export { SHOP_HEADER } from "./fetch-rewrite";
export {
  applyWebhookOrder,
  cancelOrder,
  editOrder,
  orderFromWebhook,
  type WebhookOrderPayload,
} from "./webhook-orders";
export { DELIVERY_FAULT_KINDS, WebhookDeliveries } from "./webhooks";
export type { DeliveryFaultInput, DeliveryFaultKind, DeliveryFaultRule, DeliveryRecord } from "./webhooks";
export { ORDER_PAGE_PATH, orderPageUrl } from "./order-page";
export { flowDefinitionsFrom, FlowRegistry, validateTriggerPayload } from "./flow";
export { checkWebPixelSettings, webPixelFieldsFrom, type WebPixelRecord } from "./web-pixels";
export type { FlowDefinitions, FlowTriggerDefinition, FlowTriggerRecord } from "./flow";
export { shopifyAdminControl, ShopifyAdminControlError, type ShopifyAdminControl } from "./control-client";
export type { AppCredentials } from "./token-exchange";

export interface StartShopifyAdminOptions {
  /** default 0: a free port (the CLI defaults to 4020) */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** the app's credentials and scopes: without them the token endpoint answers invalid_client */
  app?: AppCredentials;
  /** time source for buckets, token expiry and timestamps (tests) */
  now?: () => number;
  quiet?: boolean;
  /** the shops' plan, which sets their GraphQL bucket (default standard: 2000 points, 100 a second) */
  plan?: ShopifyPlan;
  /** the app's Flow triggers and actions, as deployed (see flowDefinitionsFrom(extensionsDir)) */
  flow?: FlowDefinitions;
}

export interface RunningShopifyAdmin {
  url: string;
  schema: GraphQLSchema;
  clock: StandInClock;
  /** the state answering for shops never loaded */
  state: ShopState;
  /** every GraphQL call, oldest first */
  requests: CallRecord[];
  /** URLs the fetch rewrite refused (anything not Shopify and not loopback) */
  refused: string[];
  /** Flow: the app's declared triggers and the flowTriggerReceive calls accepted */
  flow: FlowRegistry;
  /** The webhooks it sends to the app (PUT /_control/webhooks), with their delivery rules and log */
  deliveries: WebhookDeliveries;
  /** The shop's own state: loaded with `world` when given (replacing it), else created empty on first use. */
  shop(domain: string, world?: ShopWorld): ShopState;
  addOrder(init?: OrderInit, shop?: string): OrderRecord;
  /** Routes @shopify/shopify-api's fetch here; undone by close(). */
  installFetchRewrite(): Promise<void>;
  close(): Promise<void>;
}

export async function startShopifyAdmin(options: StartShopifyAdminOptions = {}): Promise<RunningShopifyAdmin> {
  const host = options.host ?? "127.0.0.1";
  const schema = loadAdminSchema();
  const clock = createClock(options.now);
  const store = new ShopStore(() => clock.now(), options.plan);
  const flow = new FlowRegistry();
  if (options.flow) flow.load(options.flow);
  const deliveries = new WebhookDeliveries(clock, () => options.app?.apiSecret ?? null);
  const runtime: StandInRuntime = {
    schema,
    store,
    faults: new FaultRegistry(),
    installations: new InstallationRegistry(),
    clock,
    app: options.app ?? null,
    fieldResolver: fieldResolverFor(schema),
    flow,
    deliveries,
    log: options.quiet ? () => undefined : (...args: unknown[]) => console.error("shopify-admin:", ...args),
  };
  const server: Server = createStandInServer(runtime);
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const refused: string[] = [];
  let rewrite: FetchRewrite | null = null;
  let closing: Promise<void> | undefined;

  return {
    url,
    schema,
    clock,
    state: store.fallback,
    requests: store.calls,
    refused,
    flow,
    deliveries,
    shop(domain, world) {
      if (world || !store.isLoaded(domain)) return store.load(domain, world);
      return store.stateFor(domain);
    },
    addOrder: (init, shop) => store.addOrder(init, shop ?? null),
    async installFetchRewrite() {
      rewrite ??= await installFetchRewrite(url, refused);
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        deliveries.reset();
        rewrite?.uninstall();
        rewrite = null;
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
