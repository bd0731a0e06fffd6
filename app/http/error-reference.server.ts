/**
 * A loader or action that fails unexpectedly answers a 500 carrying a short reference
 * instead of the error: the page shows the reference (never the message, which may hold
 * customer data) and the server log holds the error under the same reference, so
 * support can find one from the other.
 */
import { randomBytes } from "node:crypto";
import { json } from "@remix-run/node";
import { ERROR_REFERENCE_PATTERN, type ErrorReferenceBody } from "./error-reference";

export function newErrorReference(): string {
  return randomBytes(4).toString("hex");
}

type Handler<A extends { request: Request }, R> = (args: A) => Promise<R>;

/** Wraps a loader or action. Thrown Responses (redirects, 404s, Shopify's auth answers) pass unchanged. */
export function withErrorReference<A extends { request: Request }, R>(
  handler: Handler<A, R>,
  log: (line: string, error: unknown) => void = console.error,
): Handler<A, R> {
  return async (args) => {
    try {
      return await handler(args);
    } catch (error) {
      if (error instanceof Response) throw error;
      const reference = newErrorReference();
      // The path only: the query may carry the session token.
      log(`[error ${reference}] ${args.request.method} ${new URL(args.request.url).pathname} failed:`, error);
      const failed = args.request.method === "GET" || args.request.method === "HEAD" ? "load" : "save";
      throw json<ErrorReferenceBody>({ errorReference: reference, failed }, { status: 500 });
    }
  };
}

export { ERROR_REFERENCE_PATTERN };
