/** A refusal (models/refusal.ts) from the error that carried it: the platform's field and words. */
import { SellerApiError } from "../seller-api";
import { readErrorDetails } from "../seller-api/response-shapes";
import { text, type Refusal } from "./refusal";

/** The refusal an error stands for. */
export function refusalOf(error: unknown): Refusal {
  const field = error instanceof Error && "field" in error ? text(String(error.field)) : null;
  if (error instanceof SellerApiError && error.status !== undefined) {
    const details = readErrorDetails(error.body);
    return { field: field ?? text(details.field), message: text(details.message) };
  }
  return { field, message: error instanceof Error ? text(error.message) : null };
}
