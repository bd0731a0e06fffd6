/**
 * Tells apart, from what `fetch` throws, a request that never left (safe to send again)
 * from one that may have reached the platform (a POST must then not be re-sent blindly).
 * Node's fetch (undici) throws `TypeError("fetch failed")` with the socket error as `cause`.
 */

/** Codes meaning no connection was made, so no byte of the request reached the server. */
const NOTHING_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
  // app/net/public-address.server.ts refused the resolved address before connecting.
  "ERR_ADDRESS_NOT_PUBLIC",
]);

export interface NetworkFailure {
  /** First error code found (ECONNRESET, UND_ERR_SOCKET, ...), "timeout", or "unknown". */
  reason: string;
  timedOut: boolean;
  /** True only when every code found says the connection was never made. */
  nothingSent: boolean;
}

/** Error codes anywhere in the cause chain, AggregateError members included. */
export function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number) => {
    if (depth > 8 || e === null || typeof e !== "object" || seen.has(e)) return;
    seen.add(e);
    const { code, cause, errors } = e as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === "string") codes.push(code);
    visit(cause, depth + 1);
    if (Array.isArray(errors)) for (const inner of errors) visit(inner, depth + 1);
  };
  visit(error, 0);
  return codes;
}

export function classifyNetworkError(error: unknown, timedOut: boolean): NetworkFailure {
  const name = error instanceof Error ? error.name : "";
  if (timedOut || name === "TimeoutError") return { reason: "timeout", timedOut: true, nothingSent: false };
  const codes = errorCodes(error);
  return {
    reason: codes[0] ?? "unknown",
    timedOut: false,
    nothingSent: codes.length > 0 && codes.every((c) => NOTHING_SENT.has(c)),
  };
}
