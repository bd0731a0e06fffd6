/**
 * The Seller Order API client: the one place that knows the platform's API.
 * Plain TypeScript (no Remix, no Prisma): the pipeline and the admin import from here.
 */
export {
  createSellerApiClient,
  DEFAULT_TIMEOUT_MS,
  type LeadList,
  type LeadPage,
  type ListLeadsParams,
  type SellerApiClient,
  type SellerApiClientOptions,
} from "./client";
export {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  errorFromResponse,
  InternalServerError,
  InvalidInputError,
  InvalidLeadInputError,
  NotFoundError,
  OutcomeUnknownError,
  RateLimitError,
  RateLimitWaitError,
  SellerApiError,
  TimeoutError,
  UnexpectedResponseError,
  UnprocessableEntityError,
  UnsupportedApiVersionError,
  type ErrorDetails,
  type OutcomeUnknownReason,
} from "./errors";
export {
  checkLeadInput,
  decimalString,
  leadInputSchema,
  leadItemSchema,
  moroccanMobile,
  type LeadInput,
  type LeadInputCheck,
  type LeadItem,
} from "./lead-input";
export { createTokenBucketLimiter, keyFingerprint, type RateLimiter, type TokenBucketOptions } from "./rate-limiter";
export { type CreateLeadResult } from "./response-shapes";
export { rateLimitDelayMs, statedRetryAfterMs, untilNextMinuteMs } from "./retry-after";
export { isUnsupportedVersion, majorVersion, readApiVersion, SUPPORTED_MAJOR_VERSION } from "./api-version";
export {
  amountString,
  type Account,
  type Anomaly,
  type City,
  type LeadDetail,
  type LeadSummary,
  type Product,
} from "./schemas";
export { type CallRecord, type HttpMethod, type RetryOptions } from "./transport";
