/** The body of a 500 answered by withErrorReference (error-reference.server.ts), as the error page reads it. */
export interface ErrorReferenceBody {
  errorReference: string;
  /** What failed: reading the page (a GET: nothing was changed) or saving a change (any other method). */
  failed?: "load" | "save";
}

export const ERROR_REFERENCE_PATTERN = /^[0-9a-f]{8}$/;

/** What a route error says failed; a render error or an untagged one only showed the page. */
export function errorFailureOf(error: unknown): "load" | "save" {
  const data = (error as { data?: unknown } | null)?.data;
  return typeof data === "object" && data !== null && (data as Partial<ErrorReferenceBody>).failed === "save"
    ? "save"
    : "load";
}

/** The reference a route error carries, or null (another error, or a thrown Response of another kind). */
export function errorReferenceOf(error: unknown): string | null {
  const data = (error as { data?: unknown } | null)?.data;
  const reference =
    typeof data === "object" && data !== null ? (data as Partial<ErrorReferenceBody>).errorReference : undefined;
  return typeof reference === "string" && ERROR_REFERENCE_PATTERN.test(reference) ? reference : null;
}
