/**
 * The Seller Order API client: resource methods on top of the transport. Each method
 * is a request plus a zod parse; the tolerance for what the contract leaves open lives
 * in response-shapes.ts, the resilience in transport.ts.
 */
import { z } from "zod";
import {
  fromAnswer,
  InvalidInputError,
  InvalidLeadInputError,
  NotFoundError,
  OutcomeUnknownError,
  UnexpectedResponseError,
} from "./errors";
import { checkLeadInput, type LeadInput } from "./lead-input";
import { createTokenBucketLimiter, keyFingerprint, type RateLimiter } from "./rate-limiter";
import { createRedactor } from "./redact";
import { readCreateResult, readNextBefore, unwrapData, type CreateLeadResult } from "./response-shapes";
import {
  accountSchema,
  citySchema,
  describeIssues,
  leadDetailSchema,
  leadSummarySchema,
  productSchema,
  type Account,
  type City,
  type LeadDetail,
  type LeadSummary,
  type Product,
} from "./schemas";
import {
  createTransport,
  DEFAULT_RETRY,
  type ApiRequest,
  type ApiResponse,
  type CallRecord,
  type RetryOptions,
} from "./transport";

export interface SellerApiClientOptions {
  /** e.g. "https://platform.example/api" (paths /v1/... are appended). */
  baseUrl: string;
  apiKey: string;
  fetch?: typeof globalThis.fetch;
  /** Shared pacing; defaults to an in-memory token bucket per client. */
  limiter?: RateLimiter;
  retry?: RetryOptions;
  /** Called after every HTTP attempt (activity log). Errors thrown here are ignored. */
  onCall?: (record: CallRecord) => void | Promise<void>;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /** Per attempt, connection to last body byte. Default 15 s. */
  timeoutMs?: number;
  /** How long a rate read from GET /v1/me is trusted. Default 5 min. */
  rateRefreshMs?: number;
}

export interface ListLeadsParams {
  /** Filter on confirmation_status. */
  status?: string;
  /** Minimum creation date, "YYYY-MM-DD" (a Date is taken as its UTC day). */
  since?: string | Date;
  /** Page size, 1 to 100. Default 100 (fewest calls). */
  limit?: number;
}

export interface LeadPage {
  leads: LeadSummary[];
  /** Cursor of the next page, null on the last one. */
  nextBefore: string | number | null;
  raw: unknown;
}

/** Iterates leads newest first across pages; `.pages()` iterates whole pages. */
export interface LeadList extends AsyncIterable<LeadSummary> {
  pages(): AsyncIterable<LeadPage>;
}

export interface SellerApiClient {
  /** Verifies the key, identifies the account, and refreshes the rate limit. */
  me(): Promise<Account>;
  products(): Promise<Product[]>;
  cities(): Promise<City[]>;
  /** Validates then posts; 201 -> created, 202 -> damaged. Never re-sent when the outcome is unknown. */
  createLead(input: LeadInput): Promise<CreateLeadResult>;
  listLeads(params?: ListLeadsParams): LeadList;
  /** null when the ref does not exist or belongs to another seller. */
  getLead(ref: string): Promise<LeadDetail | null>;
  /** The key's current `rate_limit_per_minute`, read from GET /v1/me when not fresh. */
  getRateLimitPerMinute(): Promise<number>;
  /** Non-secret identifier of the key, as used with the limiter. */
  readonly keyFingerprint: string;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_RATE_REFRESH_MS = 5 * 60_000;
const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createSellerApiClient(options: SellerApiClientOptions): SellerApiClient {
  checkOptions(options);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const redactor = createRedactor(options.apiKey);
  const fingerprint = keyFingerprint(options.apiKey);
  const rateRefreshMs = options.rateRefreshMs ?? DEFAULT_RATE_REFRESH_MS;

  const limiter = options.limiter ?? createTokenBucketLimiter({ now, sleep });
  let rate: { perMinute: number; readAt: number } | undefined;
  // Stryker disable next-line BooleanLiteral: equivalent, no rate is read yet, and reading one clears the flag
  let rateStale = false;
  let refreshing: Promise<number> | undefined;

  const transport = createTransport({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    limiter,
    limiterKey: fingerprint,
    redactor,
    now,
    sleep,
    random: options.random ?? Math.random,
    onCall: options.onCall,
    rateFor: (request: ApiRequest) =>
      request.refreshRate === false ? Promise.resolve(rate?.perMinute) : currentRate(),
    onRateLimited: () => {
      rateStale = true;
    },
  });

  const fresh = (read: { readAt: number }): boolean => now() - read.readAt < rateRefreshMs;

  function currentRate(): Promise<number> {
    if (rate && !rateStale && fresh(rate)) return Promise.resolve(rate.perMinute);
    refreshing ??= readRate().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  }

  /**
   * Another process's fresh read when the limiter shares one (not after a 429:
   * the limit may have changed), else GET /v1/me, by one process when they share.
   */
  async function readRate(): Promise<number> {
    if (!rateStale && limiter.sharedRate) {
      const shared = await limiter.sharedRate(fingerprint);
      if (shared && fresh(shared)) {
        rate = shared;
        return shared.perMinute;
      }
      if (shared && limiter.claimRateRead && !(await limiter.claimRateRead(fingerprint, shared.readAt, now()))) {
        // Another process is reading it again: go on with the last value until the next refresh.
        rate = { perMinute: shared.perMinute, readAt: now() };
        return shared.perMinute;
      }
    }
    return (await me()).rate_limit_per_minute;
  }

  function parse<S extends z.ZodTypeAny>(schema: S, res: ApiResponse, what: string): z.output<S> {
    const parsed = schema.safeParse(unwrapData(res.body));
    if (parsed.success) return parsed.data;
    const issues = describeIssues(parsed.error);
    throw new UnexpectedResponseError({
      ...fromAnswer(res, redactor, {
        message: `${res.method} ${res.path} answered ${res.status} with an unexpected ${what}: ${issues.join("; ")}`,
        code: "unexpected_response",
      }),
      issues,
    });
  }

  async function me(): Promise<Account> {
    const unpaced = rate === undefined;
    const res = await transport.send({ method: "GET", path: "/v1/me", refreshRate: false });
    const account = parse(accountSchema, res, "account");
    transport.checkVersion(account.api_version, res);
    rate = { perMinute: account.rate_limit_per_minute, readAt: now() };
    rateStale = false;
    await limiter.shareRate?.(fingerprint, rate.perMinute, rate.readAt);
    // The very first call went out before the rate was known: charge it to the budget now.
    if (unpaced) await limiter.acquire(fingerprint, account.rate_limit_per_minute);
    return account;
  }

  async function createLead(input: LeadInput): Promise<CreateLeadResult> {
    const checked = checkLeadInput(input);
    if (!checked.ok) {
      throw new InvalidLeadInputError({
        message: `Lead not sent: ${checked.message}`,
        code: "invalid_lead_input",
        field: checked.field,
        method: "POST",
        path: "/v1/leads",
        requestTime: new Date(now()),
        redactor,
      });
    }
    const res = await transport.send({ method: "POST", path: "/v1/leads", body: checked.value });
    const result = readCreateResult(res.status, res.body);
    if (result) return result;
    throw new OutcomeUnknownError({
      ...fromAnswer(res, redactor, {
        message: `POST /v1/leads answered ${res.status} without a readable lead ref; the lead probably exists`,
        code: "outcome_unknown",
      }),
      reason: "unreadable_response",
    });
  }

  async function* leadPages(params: ListLeadsParams): AsyncGenerator<LeadPage> {
    const query = listQuery(params, now);
    const seen = new Set<string>();
    let before: string | number | undefined;
    for (;;) {
      const res = await transport.send({ method: "GET", path: "/v1/leads", query: { ...query, before } });
      const leads = parse(z.array(leadSummarySchema), res, "lead list");
      const nextBefore = readNextBefore(res.body);
      yield { leads, nextBefore, raw: res.body };
      if (leads.length === 0 || nextBefore === null) return;
      if (seen.has(String(nextBefore))) {
        // Following it again would loop forever; stopping quietly could hide leads.
        throw new UnexpectedResponseError(
          fromAnswer({ ...res, body: undefined }, redactor, {
            message: `GET ${res.path} returned the cursor ${nextBefore} twice; pagination stopped`,
            code: "cursor_repeated",
          }),
        );
      }
      seen.add(String(nextBefore));
      before = nextBefore;
    }
  }

  function listLeads(params: ListLeadsParams = {}): LeadList {
    listQuery(params, now); // a bad parameter throws here, before any call
    return {
      pages: () => leadPages(params),
      async *[Symbol.asyncIterator]() {
        for await (const page of leadPages(params)) yield* page.leads;
      },
    };
  }

  async function getLead(ref: string): Promise<LeadDetail | null> {
    if (typeof ref !== "string" || ref.trim() === "") throw invalidParam("ref", "ref must be a non-empty string", now);
    try {
      const res = await transport.send({ method: "GET", path: `/v1/leads/${encodeURIComponent(ref)}` });
      return parse(leadDetailSchema, res, "lead");
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  async function list<S extends z.ZodTypeAny>(path: string, schema: S, what: string): Promise<z.output<S>[]> {
    const res = await transport.send({ method: "GET", path });
    return parse(z.array(schema), res, what);
  }

  return {
    me,
    products: () => list("/v1/products", productSchema, "product list"),
    cities: () => list("/v1/cities", citySchema, "city list"),
    createLead,
    listLeads,
    getLead,
    getRateLimitPerMinute: currentRate,
    keyFingerprint: fingerprint,
  };
}

function checkOptions(options: SellerApiClientOptions): void {
  let url: URL | undefined;
  try {
    url = new URL(options.baseUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new TypeError("baseUrl must be an absolute http(s) URL");
  }
  // Never echo the key, not even in this message.
  if (typeof options.apiKey !== "string" || !/^[\x21-\x7e]+$/.test(options.apiKey)) {
    throw new TypeError("apiKey must be a non-empty string of printable characters without spaces");
  }
}

function invalidParam(field: string, message: string, now: () => number): InvalidInputError {
  return new InvalidInputError({ message, field, code: "invalid_parameter", requestTime: new Date(now()) });
}

function listQuery(params: ListLeadsParams, now: () => number): Record<string, string | number | undefined> {
  const limit = params.limit ?? 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw invalidParam("limit", "limit must be an integer from 1 to 100", now);
  }
  let since: string | undefined;
  if (params.since instanceof Date) {
    if (Number.isNaN(params.since.getTime())) throw invalidParam("since", "since must be a valid date", now);
    since = params.since.toISOString().slice(0, 10);
  } else if (params.since !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(params.since)) throw invalidParam("since", "since must be a date YYYY-MM-DD", now);
    since = params.since;
  }
  if (params.status !== undefined && (typeof params.status !== "string" || params.status.trim() === "")) {
    throw invalidParam("status", "status must be a non-empty string", now);
  }
  return { limit, status: params.status, since };
}
