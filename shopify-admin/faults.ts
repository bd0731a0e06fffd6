/**
 * Failure injection for GraphQL calls, by shop and/or operation name. A rule answers
 * `times` calls (null: until cleared), newest rule first; `slow` only delays the call,
 * which then goes on (another rule may still answer it).
 *
 *   refuse        the socket is destroyed without an answer (the client sees a network error)
 *   slow          the answer comes `delayMs` later
 *   http_error    HTTP `status` (default 503) with Shopify's plain error body
 *   throttled     200 with a THROTTLED error and extensions.cost (bucket reported empty)
 *   unauthorized  401 as for an invalid access token
 *   silent        the call is answered as usual but changes nothing (a mutation that
 *                 reports success and is lost: a write-back that failed silently)
 *   no_cursor     the call is answered as usual, every page saying it has a next one
 *                 with no endCursor
 *   same_cursor   likewise, every page after the first giving back the cursor it was asked
 *                 for (the first page's own), so the next page is the same page
 */
import { z } from "zod";

export const FAULT_KINDS = [
  "refuse",
  "slow",
  "http_error",
  "throttled",
  "unauthorized",
  "silent",
  "no_cursor",
  "same_cursor",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const faultInputSchema = z
  .object({
    kind: z.enum(FAULT_KINDS),
    shop: z.string().min(1).nullable().optional(),
    operation: z.string().min(1).nullable().optional(),
    times: z.number().int().positive().nullable().optional(),
    status: z.number().int().min(400).max(599).optional(),
    delayMs: z.number().int().nonnegative().max(120_000).optional(),
  })
  .strict();

export type FaultInput = z.infer<typeof faultInputSchema>;

export interface FaultRule {
  id: number;
  kind: FaultKind;
  shop: string | null;
  operation: string | null;
  /** calls left; null = until cleared */
  remaining: number | null;
  status: number;
  delayMs: number;
  /** calls this rule answered */
  hits: number;
}

export class FaultRegistry {
  private rules: FaultRule[] = [];
  private sequence = 0;

  add(input: FaultInput): FaultRule {
    const rule: FaultRule = {
      id: ++this.sequence,
      kind: input.kind,
      shop: input.shop ?? null,
      operation: input.operation ?? null,
      remaining: input.times === undefined ? 1 : input.times,
      status: input.status ?? (input.kind === "unauthorized" ? 401 : 503),
      delayMs: input.delayMs ?? (input.kind === "slow" ? 2000 : 0),
      hits: 0,
    };
    this.rules.unshift(rule);
    return rule;
  }

  list(): FaultRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  remove(id: number): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    return this.rules.length < before;
  }

  clear(shop?: string | null): void {
    this.rules = shop ? this.rules.filter((r) => r.shop !== shop) : [];
  }

  /** Delay of the matching `slow` rules, then the first other matching rule; both consumed. */
  take(shop: string | null, operation: string | null): { delayMs: number; rule: FaultRule | null } {
    const matching = this.rules.filter(
      (r) =>
        (r.shop === null || r.shop === shop) &&
        (r.operation === null || r.operation === operation) &&
        r.remaining !== 0,
    );
    let delayMs = 0;
    for (const rule of matching.filter((r) => r.kind === "slow")) {
      delayMs += rule.delayMs;
      this.consume(rule);
    }
    const rule = matching.find((r) => r.kind !== "slow") ?? null;
    if (rule) this.consume(rule);
    return { delayMs, rule: rule ? { ...rule } : null };
  }

  private consume(rule: FaultRule): void {
    rule.hits += 1;
    if (rule.remaining !== null) rule.remaining -= 1;
    if (rule.remaining === 0) this.rules = this.rules.filter((r) => r !== rule);
  }
}
