/**
 * The Anomalies page's loader and action work, as its route calls them once it has
 * authenticated: the groups (all causes, or the one Home's inbox opened) with the ages the
 * page shows, the customer holds and the costly mismatches; then each fix the page offers.
 */
import prisma from "../db.server";
import type { AdminGraphqlClient } from "../shopify/admin-graphql.server";
import { CAUSES, type Cause } from "../models/attention";
import { loadCustomerHolds } from "../customers/held-orders.server";
import { cancelDuplicateInShopify, keepDuplicate, sendAnyway } from "../sync/order-actions.server";
import { confirmedRelease, sendReleased, type Release } from "../sync/release-held.server";
import {
  actionFailure,
  checkCatalogueAgain,
  fixCityGroup,
  fixSkuGroup,
  loadAnomalyGroups,
  referenceOptions,
  resendGroup,
  SCAN_LIMIT,
  type FixFailureCode,
} from "./anomalies.server";
import { correctAndResend } from "./order-detail.server";
import { loadShopFacts } from "./shop-facts.server";
import { loadMismatches } from "./mismatches.server";
import { minutesSince } from "./minutes-since";

const isCause = (value: string | null): value is Cause =>
  value !== null && (CAUSES as readonly string[]).includes(value);

export async function anomaliesPageData(request: Request, shop: string) {
  const param = new URL(request.url).searchParams.get("cause");
  const cause = isCause(param) ? param : undefined;
  const now = Date.now();
  const [anomalies, customerHolds, facts, mismatches] = await Promise.all([
    loadAnomalyGroups(prisma, shop, { cause }),
    !cause || cause === "customer" ? loadCustomerHolds(prisma, shop) : Promise.resolve(null),
    loadShopFacts(prisma, shop),
    !cause || cause === "mismatch" ? loadMismatches(prisma, shop) : Promise.resolve(null),
  ]);
  const options = await referenceOptions(prisma, shop, {
    products: anomalies.groups.some((g) => g.fix === "mapSku" || g.fix === "mapVariant"),
    cities: anomalies.groups.some((g) => g.fix === "aliasCity"),
  });
  // Ages are computed here: the page shows them as they are (no clock of the browser's).
  const groups = anomalies.groups.map((g) => ({
    ...g,
    oldestMinutes: minutesSince(g.oldestAt, now) ?? 0,
    oldestWithinLimitMinutes: minutesSince(g.oldestWithinLimitAt, now),
  }));
  return {
    ...anomalies,
    groups,
    ...options,
    customerHolds,
    mismatches,
    scanLimit: SCAN_LIMIT,
    cause: cause ?? null,
    connected: facts.connected,
    contact: facts.contact,
  };
}

export type AnomaliesActionResult =
  | { ok: true; intent: string; resent: number; skipped: number; release?: Release; sent?: number }
  | { ok: false; intent: string; error: FixFailureCode | "shopify_failed" };

export async function anomaliesPageAction(
  request: Request,
  shop: string,
  admin: AdminGraphqlClient,
): Promise<AnomaliesActionResult> {
  const form = await request.formData();
  const field = (name: string) => (typeof form.get(name) === "string" ? (form.get(name) as string) : "");
  const intent = field("intent");
  const key = field("key");
  const id = field("id");
  const actor = { by: "merchant" };
  try {
    if (intent === "fixSku")
      return {
        ok: true,
        intent,
        ...(await fixSkuGroup(prisma, shop, { key, platformSku: field("platformSku") }, actor)),
      };
    if (intent === "fixCity")
      return {
        ok: true,
        intent,
        ...(await fixCityGroup(prisma, shop, { key, cityId: Number(field("cityId")) }, actor)),
      };
    if (intent === "resendGroup") {
      // Sent only as confirmed: the count the confirmation stated, old orders only when it said they are old.
      const count = Number(field("count"));
      const sendStale = field("sendStale") === "confirmed";
      return {
        ok: true,
        intent,
        ...(await resendGroup(
          prisma,
          shop,
          key,
          { ...actor, sendStale },
          Number.isInteger(count) && count > 0 ? count : undefined,
        )),
      };
    }
    if (intent === "sendReleased") {
      // The orders a fix freed, as their confirmation stated them (ReleaseModal).
      const { ids, count } = confirmedRelease(form);
      const { sent, skipped } = await sendReleased(prisma, shop, ids, actor, count);
      return { ok: true, intent, resent: sent, skipped, sent };
    }
    if (intent === "checkCatalogue")
      return { ok: true, intent, ...(await checkCatalogueAgain(prisma, shop, key, actor)) };
    if (intent === "sendAnyway") {
      await sendAnyway(prisma, shop, id, actor);
      return { ok: true, intent, resent: 1, skipped: 0 };
    }
    if (intent === "correctPhone") {
      await correctAndResend(prisma, shop, id, { phone: field("phone") }, actor);
      return { ok: true, intent, resent: 1, skipped: 0 };
    }
    if (intent === "keepDuplicate") {
      await keepDuplicate(prisma, shop, id, actor);
      return { ok: true, intent, resent: 0, skipped: 0 };
    }
    if (intent === "cancelDuplicate") {
      await cancelDuplicateInShopify(prisma, admin, shop, id, actor);
      return { ok: true, intent, resent: 0, skipped: 0 };
    }
  } catch (error) {
    return { ok: false, intent, error: actionFailure(error) };
  }
  throw new Response("Unknown intent", { status: 400 });
}
