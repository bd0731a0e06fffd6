/**
 * Typed failures of Admin GraphQL calls. The job runner tells them apart by class:
 * throttled -> reschedule after retryAfterMs; user error -> show the merchant, do not
 * retry unchanged; GraphQL error -> a bug or an outage, retry only when `retriable`.
 */

export interface QueryCost {
  requestedQueryCost?: number;
  actualQueryCost?: number | null;
  throttleStatus?: {
    maximumAvailable: number;
    currentlyAvailable: number;
    restoreRate: number;
  };
}

export abstract class ShopifyAdminError extends Error {
  /** The GraphQL operation name (e.g. "TagsAdd"), for logs. */
  readonly operation: string;
  abstract readonly retriable: boolean;

  constructor(message: string, operation: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.operation = operation;
  }
}

export class ShopifyThrottledError extends ShopifyAdminError {
  readonly retriable = true;
  readonly retryAfterMs: number;
  readonly cost: QueryCost | undefined;

  constructor(init: { operation: string; retryAfterMs: number; cost?: QueryCost; cause?: unknown }) {
    super(`Shopify throttled ${init.operation}; retry in ${init.retryAfterMs} ms`, init.operation, {
      cause: init.cause,
    });
    this.retryAfterMs = init.retryAfterMs;
    this.cost = init.cost;
  }
}

export class ShopifyGraphqlError extends ShopifyAdminError {
  readonly retriable: boolean;
  readonly messages: string[];
  readonly codes: string[];
  /** HTTP status when the call failed below GraphQL (5xx, 401...). */
  readonly status: number | undefined;

  constructor(init: { operation: string; messages: string[]; codes?: string[]; status?: number; cause?: unknown }) {
    const where = init.status ? ` (HTTP ${init.status})` : "";
    super(`Shopify rejected ${init.operation}${where}: ${init.messages.join("; ")}`, init.operation, {
      cause: init.cause,
    });
    this.messages = init.messages;
    this.codes = init.codes ?? [];
    this.status = init.status;
    this.retriable = init.status !== undefined && init.status >= 500;
  }
}

export interface UserErrorEntry {
  field?: string[] | null;
  message: string;
  code?: string | null;
}

/** A mutation answered with userErrors: Shopify refused the change itself. */
/** ["Order is archived.", "Bad id"] -> "Order is archived; Bad id." */
const sentences = (messages: string[]) => `${messages.map((m) => m.trim().replace(/\.$/, "")).join("; ")}.`;

export class ShopifyUserError extends ShopifyAdminError {
  readonly retriable = false;
  readonly action: string;
  readonly userErrors: UserErrorEntry[];

  constructor(init: { operation: string; action: string; userErrors: UserErrorEntry[] }) {
    // Merchant-readable: "Shopify refused to mark the order as paid: Order cannot be marked as paid."
    super(`Shopify refused to ${init.action}: ${sentences(init.userErrors.map((e) => e.message))}`, init.operation);
    this.action = init.action;
    this.userErrors = init.userErrors;
  }
}

/** No answer within the call's time limit (the request was aborted). */
export class ShopifyTimeoutError extends ShopifyAdminError {
  readonly retriable = true;
  readonly timeoutMs: number;

  constructor(init: { operation: string; timeoutMs: number; cause?: unknown }) {
    super(`Shopify did not answer ${init.operation} within ${init.timeoutMs} ms`, init.operation, {
      cause: init.cause,
    });
    this.timeoutMs = init.timeoutMs;
  }
}

/** No HTTP answer at all: connection refused or reset, DNS, TLS. */
export class ShopifyNetworkError extends ShopifyAdminError {
  readonly retriable = true;

  constructor(init: { operation: string; cause?: unknown }) {
    super(`Shopify could not be reached for ${init.operation}`, init.operation, { cause: init.cause });
  }
}

/**
 * 401: the access token is invalid (revoked, expired, app reinstalled). The Remix
 * package forgets the token when it sees this, so the next authenticated request
 * exchanges a new one: the merchant reopens the app (or retries) to re-authorize.
 */
export class ShopifyUnauthorizedError extends ShopifyAdminError {
  readonly retriable = false;

  constructor(init: { operation: string; cause?: unknown }) {
    super(`Shopify refused the app's access token for ${init.operation}`, init.operation, { cause: init.cause });
  }
}

/** An answer larger than the app accepts for one call: never parsed further. */
export class ShopifyResponseTooLargeError extends ShopifyAdminError {
  readonly retriable = false;
  readonly bytes: number;
  readonly limitBytes: number;

  constructor(init: { operation: string; bytes: number; limitBytes: number }) {
    super(
      `Shopify's answer to ${init.operation} is ${init.bytes} bytes, over the ${init.limitBytes}-byte limit`,
      init.operation,
    );
    this.bytes = init.bytes;
    this.limitBytes = init.limitBytes;
  }
}

export class ShopifyOrderNotFoundError extends ShopifyAdminError {
  readonly retriable = false;
  readonly orderGid: string;

  constructor(orderGid: string) {
    super(`Shopify has no order ${orderGid} (deleted, or not visible to the app)`, "OrderWriteBackState");
    this.orderGid = orderGid;
  }
}
