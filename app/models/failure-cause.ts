/** Which family a failed Seller Order API call belongs to, for the sentence the order's timeline shows (order-texts.ts). */
import { ConnectionError, InternalServerError, TimeoutError, UnexpectedResponseError } from "../seller-api";
import type { FailureCause } from "./order-texts";

export function failureCauseOf(error: unknown): FailureCause {
  if (error instanceof TimeoutError) return "timeout";
  if (error instanceof ConnectionError) return "unreachable";
  if (error instanceof InternalServerError) return "server";
  if (error instanceof UnexpectedResponseError) return "unexpected";
  return "other";
}
