/** The built-in payloads carry fixed dates; the demo stamps them with the time they are sent. */
import { withMembers } from "../lib/json-spans";

const DATE_FIELDS = ["created_at", "updated_at", "processed_at"] as const;

export function withSendingTime(payload: Record<string, unknown>, now: Date): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...payload };
  for (const field of DATE_FIELDS) if (typeof copy[field] === "string") copy[field] = now.toISOString();
  if (typeof copy.cancelled_at === "string") copy.cancelled_at = now.toISOString();
  return copy;
}

/** The payload's bytes with the same dates stamped (`payload` their parsed view), every other byte as written. */
export function bodyWithSendingTime(body: string, payload: Record<string, unknown>, now: Date): string {
  const stamped = withSendingTime(payload, now);
  const changed = Object.keys(stamped).filter((key) => stamped[key] !== payload[key]);
  return withMembers(body, new Map(changed.map((key) => [key, JSON.stringify(stamped[key])])));
}
