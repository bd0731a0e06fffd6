/** The built-in payloads carry fixed dates; the demo stamps them with the time they are sent. */
const DATE_FIELDS = ["created_at", "updated_at", "processed_at"] as const;

export function withSendingTime(payload: Record<string, unknown>, now: Date): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...payload };
  for (const field of DATE_FIELDS) if (typeof copy[field] === "string") copy[field] = now.toISOString();
  if (typeof copy.cancelled_at === "string") copy.cancelled_at = now.toISOString();
  return copy;
}
