/**
 * The stand-in's in-memory state: one ShopState per loaded shop, a fallback state that
 * answers for any shop never loaded (what tests that need one world use), a leaky
 * bucket per shop domain, and the call log.
 */
import { LeakyBucket, PLAN_LIMITS, type ShopifyPlan } from "./bucket";
import {
  legacyId,
  orderRecord,
  type MutationName,
  type OrderInit,
  type OrderRecord,
  type ProductRecord,
  type ProductVariantRecord,
  type UserError,
} from "./records";
import type { WebPixelRecord } from "./web-pixels";

export interface ShopState {
  /** null for the fallback state */
  domain: string | null;
  orders: Record<string, OrderRecord>;
  /** Every variant the shop sells (also those of `products`), in the order `productVariants` lists them. */
  productVariants: ProductVariantRecord[];
  products: ProductRecord[];
  /** The next N GraphQL calls answer THROTTLED (HTTP 200) with an empty bucket, charging nothing. */
  throttleNext: number;
  /** The next N calls answer HTTP 429 with Retry-After: 3 (seconds). */
  http429Next: number;
  /** The next call of that mutation answers these userErrors and changes nothing. */
  userErrorsNext: Partial<Record<MutationName, UserError[]>>;
  /** The app's web pixel on the shop (webPixelCreate), if any. */
  webPixel: WebPixelRecord | null;
}

export function emptyShopState(domain: string | null): ShopState {
  return {
    domain,
    orders: {},
    productVariants: [],
    products: [],
    throttleNext: 0,
    http429Next: 0,
    userErrorsNext: {},
    webPixel: null,
  };
}

export interface ShopWorld {
  products?: ProductRecord[];
  /** Variants not attached to a product record (tests); those of `products` are added. */
  productVariants?: ProductVariantRecord[];
  orders?: OrderRecord[];
}

export interface CallRecord {
  id: number;
  /** stand-in clock, ISO */
  at: string;
  shop: string | null;
  accessToken: string | null;
  apiVersion: string;
  operationName: string | null;
  query: string;
  variables: Record<string, unknown>;
  /** HTTP status answered (0 when the socket was destroyed) */
  status: number;
  requestedQueryCost: number | null;
  actualQueryCost: number | null;
  throttled: boolean;
  /** the injected fault that answered, if any */
  fault: string | null;
  durationMs: number;
}

export const CALL_LOG_LIMIT = 5000;

/** Orders listed as Shopify's default sort does: by id, oldest first. */
export function ordersById(state: ShopState): OrderRecord[] {
  return Object.values(state.orders).sort((a, b) => legacyId(a.id) - legacyId(b.id));
}

export class ShopStore {
  readonly fallback: ShopState = emptyShopState(null);
  private readonly shops = new Map<string, ShopState>();
  private readonly buckets = new Map<string, LeakyBucket>();
  readonly calls: CallRecord[] = [];
  private callSequence = 0;

  constructor(
    private readonly now: () => number,
    private readonly plan: ShopifyPlan = "standard",
  ) {}

  /** The state that answers for `domain`: its own when loaded, else the fallback. */
  stateFor(domain: string | null): ShopState {
    return (domain && this.shops.get(domain)) || this.fallback;
  }

  isLoaded(domain: string): boolean {
    return this.shops.has(domain);
  }

  loadedDomains(): string[] {
    return [...this.shops.keys()];
  }

  /** Replaces the shop's state with `world` (an empty shop without one). */
  load(domain: string, world: ShopWorld = {}): ShopState {
    const state = emptyShopState(domain);
    state.products = world.products ?? [];
    state.productVariants = [...state.products.flatMap((p) => p.variants), ...(world.productVariants ?? [])];
    for (const order of world.orders ?? []) state.orders[order.id] = order;
    this.shops.set(domain, state);
    this.buckets.delete(domain);
    return state;
  }

  remove(domain: string): boolean {
    this.buckets.delete(domain);
    return this.shops.delete(domain);
  }

  /** Everything back to start-up: no shop, empty fallback, full buckets, no calls. */
  reset(): void {
    this.shops.clear();
    this.buckets.clear();
    Object.assign(this.fallback, emptyShopState(null));
    this.calls.length = 0;
  }

  addOrder(init: OrderInit = {}, domain: string | null = null): OrderRecord {
    const order = orderRecord(init);
    this.stateFor(domain).orders[order.id] = order;
    return order;
  }

  bucket(domain: string | null): LeakyBucket {
    const key = domain ?? "";
    let bucket = this.buckets.get(key);
    if (!bucket) {
      const limits = PLAN_LIMITS[this.plan];
      bucket = new LeakyBucket(this.now(), limits.maximumAvailable, limits.restoreRate);
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  recordCall(call: Omit<CallRecord, "id">): CallRecord {
    const record = { id: ++this.callSequence, ...call };
    this.calls.push(record);
    if (this.calls.length > CALL_LOG_LIMIT) this.calls.splice(0, this.calls.length - CALL_LOG_LIMIT);
    return record;
  }
}
