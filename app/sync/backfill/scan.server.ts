/**
 * What the backfill and the reconciliation share to read Shopify's orders page by page
 * from a job: the progress saved in the job's payload after every page (while this
 * attempt still holds the lease), a Shopify call whose throttle is waited out without
 * spending an attempt and whose failure is told by its kind, what an unknown order
 * would become with the shop's current rules (the dry run's counts), and the yield
 * after a few pages so live orders go first.
 */
import type { Db } from "../../db.server";
import { fromWebhookOrder } from "../../leads";
import { RetryLaterError } from "../../queue/errors";
import type { ClaimedJob } from "../../queue/types";
import { ShopifyThrottledError } from "../../shopify/admin-graphql.server";
import { ShopifyAdminError } from "../../shopify/errors";
import { shopifyFailureOf } from "../../shopify/failure";
import type { MapOrder } from "./context.server";
import { intakeImportedOrder } from "../order-intake.server";
import { CENTS_OF, outcomeOf, type BackfillCounts, type OrderOutcome, type ScanProgress } from "./progress";
import { totalCentsOf } from "../../models/order-amount";

/**
 * Writes the progress while this attempt still holds the job's lease. False when the
 * lease was lost: another worker owns the job and continues from the last saved page.
 */
export async function saveScanProgress(db: Db, job: ClaimedJob, payload: ScanProgress): Promise<boolean> {
  const { count } = await db.job.updateMany({
    where: { id: job.id, state: "running", leaseOwner: job.leaseOwner, attempts: job.attempts },
    data: { payload: JSON.stringify(payload) },
  });
  return count === 1;
}

/**
 * One Shopify call of a scan. THROTTLED: the progress says until when, and the job comes
 * back then without counting an attempt. Any other Shopify failure: the progress says
 * what failed (the page shows it in the merchant's language) and the error goes on.
 */
export async function scanCall<T, P extends ScanProgress>(
  db: Db,
  job: ClaimedJob,
  progress: P,
  now: Date,
  what: string,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ShopifyThrottledError) {
      const until = new Date(now.getTime() + error.retryAfterMs);
      await saveScanProgress(db, job, { ...progress, throttledUntil: until.toISOString() });
      throw new RetryLaterError(error.retryAfterMs, {
        countAttempt: false,
        reason: `Shopify is busy: the ${what} continues in ${Math.ceil(error.retryAfterMs / 1000)} s`,
      });
    }
    if (error instanceof ShopifyAdminError)
      await saveScanProgress(db, job, { ...progress, shopifyFailure: shopifyFailureOf(error).kind });
    throw error;
  }
}

/** The job gives its worker back after a few pages: due again at once, behind the jobs already waiting. */
export function yieldAfterPage(what: string, pages: number): RetryLaterError {
  return new RetryLaterError(0, { countAttempt: false, reason: `${what} continues after page ${pages}` });
}

/** What an order (webhook-shaped) would become now: the count it adds to, and its amount to collect. */
export function outcomeOfOrder(
  mapOrder: MapOrder,
  payload: Record<string, unknown>,
  isStale: (payload: Record<string, unknown>) => boolean = () => false,
): { outcome: OrderOutcome; cents: number } {
  const result = mapOrder(fromWebhookOrder(payload));
  return { outcome: outcomeOf(result, isStale(payload)), cents: totalCentsOf(result.totalClient) };
}

function count(counts: BackfillCounts, taken: { outcome: OrderOutcome; cents: number }): void {
  counts[taken.outcome]++;
  const cents = CENTS_OF[taken.outcome];
  if (cents) counts[cents] += taken.cents;
}

/**
 * An order the app does not know: a dry run counts what it would become; a run takes it
 * in as orders/create would (intakeImportedOrder) and counts it too. "known" when a
 * webhook (or another scan) stored it first: nothing changed.
 */
export async function takeUnknownOrder(
  db: Db,
  shop: string,
  payload: Record<string, unknown>,
  counts: BackfillCounts,
  options: {
    dryRun: boolean;
    mapOrder: MapOrder;
    source: Parameters<typeof intakeImportedOrder>[3];
    /** Placed longer ago than the shop's limit: it would wait for the merchant's word. */
    isStale?: (payload: Record<string, unknown>) => boolean;
  },
): Promise<"counted" | "taken" | "known"> {
  const outcome = outcomeOfOrder(options.mapOrder, payload, options.isStale);
  if (options.dryRun) {
    count(counts, outcome);
    return "counted";
  }
  if (!(await intakeImportedOrder(db, shop, payload, options.source))) return "known";
  count(counts, outcome);
  counts.created++;
  return "taken";
}
