/**
 * The order page's loader and action work, as its route calls them once it has authenticated:
 * the order with Shopify's view of it, the customer, the delivery odds and why a customer hold
 * keeps it back; then each intent of the page (send, fix, correct, decide a duplicate, the
 * customer's standing) and the answer the page shows. Also the customer's export, a link of
 * this page. Scoped to the shop: another shop's order is "not found" before anything runs.
 */
import prisma from "../db.server";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { formText } from "../http/form";
import type { AdminGraphqlClient } from "../shopify/admin-graphql.server";
import { loadShopifyOrderStatus } from "../shopify/order-status.server";
import { loadCustomerCardForOrder } from "../customers/card.server";
import { customerExport, customerExportCsv } from "../customers/export.server";
import {
  cancelDuplicateInShopify,
  keepDuplicate,
  resendOrder,
  sendAnyway,
  setOrderCustomerStanding,
  settleMismatch,
} from "../sync/order-actions.server";
import { confirmedRelease, recheckHeldOrders, sendReleased, type Release } from "../sync/release-held.server";
import { correctAndResend, loadOrderDetail, orderBelongsTo } from "./order-detail.server";
import { actionFailure, checkCatalogueAgain, fixCityGroup, fixSkuGroup, type FixFailureCode } from "./anomalies.server";
import { loadShopFacts } from "./shop-facts.server";
import { loadOrderOdds } from "./delivery-odds.server";
import { fileResponse } from "./file-response";

export async function orderPageData(shop: string, admin: AdminGraphqlClient, id: string) {
  const order = await loadOrderDetail(prisma, shop, id, { timeZone: DEFAULT_TIME_ZONE });
  if (!order) throw new Response("Not found", { status: 404 });
  // A failed Shopify read is shown in its card; the rest of the page does not need Shopify.
  const [shopify, customer, facts] = await Promise.all([
    loadShopifyOrderStatus(admin, order.orderId),
    loadCustomerCardForOrder(prisma, shop, order.id),
    loadShopFacts(prisma, shop),
  ]);
  // Why the customer hold keeps it back, in the merchant's language (the last hold step on the timeline).
  const lastHold = order.timeline.filter((e) => e.kind === "customer_hold").at(-1);
  const holdReason = order.heldByCustomer
    ? lastHold?.customer?.kind === "customer_hold"
      ? { reason: lastHold.customer.reason }
      : { text: order.reason ?? lastHold?.message ?? "" }
    : null;
  const odds = await loadOrderOdds(prisma, shop, order.id, holdReason, facts.refusalCostCents);
  return { order, shopify, customer, holdReason, contact: facts.contact, odds };
}

export type OrderActionResult =
  | { ok: true; intent: string; resent: number; release?: Release; sent?: number }
  | { ok: false; intent: string; error: FixFailureCode | "shopify_failed" };

const text = (form: FormData, name: string) => formText(form, name) ?? "";

export async function orderPageAction(
  request: Request,
  shop: string,
  admin: AdminGraphqlClient,
  id: string,
): Promise<OrderActionResult> {
  // Another shop's order (or none): not found, before any fix touches shop-wide rules.
  if (!(await orderBelongsTo(prisma, shop, id))) throw new Response("Not found", { status: 404 });
  const form = await request.formData();
  const intent = text(form, "intent");
  // A second lead is made only when the merchant confirmed it in the modal that says so; an old order
  // is sent only when the merchant confirmed it knowing its age.
  const actor = {
    by: "merchant",
    secondLead: text(form, "secondLead") === "confirmed",
    sendStale: text(form, "sendStale") === "confirmed",
  };
  const cityId = text(form, "cityId") ? Number(text(form, "cityId")) : undefined;
  try {
    switch (intent) {
      case "resend":
        await resendOrder(prisma, shop, id, actor);
        return { ok: true, intent, resent: 1 };
      case "sendAnyway":
        await sendAnyway(prisma, shop, id, actor);
        return { ok: true, intent, resent: 1 };
      case "blockCustomer":
      case "clearCustomer":
        await setOrderCustomerStanding(prisma, shop, id, intent === "blockCustomer" ? "blocked" : null, actor);
        return { ok: true, intent, resent: 0 };
      case "trustCustomer": {
        await setOrderCustomerStanding(prisma, shop, id, "trusted", actor);
        // A trusted customer is never held: the orders the customer hold kept back can go.
        const link = await prisma.orderLink.findFirst({ where: { id, shop }, select: { phone: true } });
        const release = link?.phone
          ? await recheckHeldOrders(prisma, shop, { kind: "customer", phone: link.phone })
          : undefined;
        return { ok: true, intent, resent: 0, release };
      }
      case "sendReleased": {
        const { ids, count } = confirmedRelease(form);
        const { sent } = await sendReleased(prisma, shop, ids, actor, count);
        return { ok: true, intent, resent: sent, sent };
      }
      case "fixSku":
        return {
          ok: true,
          intent,
          ...(await fixSkuGroup(
            prisma,
            shop,
            { key: text(form, "key"), platformSku: text(form, "platformSku") },
            actor,
          )),
        };
      case "checkCatalogue":
        return { ok: true, intent, ...(await checkCatalogueAgain(prisma, shop, text(form, "key"), actor)) };
      case "fixCity":
        return {
          ok: true,
          intent,
          ...(await fixCityGroup(prisma, shop, { key: text(form, "key"), cityId: cityId ?? NaN }, actor)),
        };
      case "correct":
        return {
          ok: true,
          intent,
          ...(await correctAndResend(
            prisma,
            shop,
            id,
            { phone: text(form, "phone"), address: text(form, "address"), cityId },
            actor,
          )),
        };
      case "keepDuplicate":
        await keepDuplicate(prisma, shop, id, actor);
        return { ok: true, intent, resent: 0 };
      case "settle":
        await settleMismatch(prisma, shop, id, actor);
        return { ok: true, intent, resent: 0 };
      case "cancelDuplicate":
        await cancelDuplicateInShopify(prisma, admin, shop, id, actor);
        return { ok: true, intent, resent: 0 };
    }
  } catch (error) {
    return { ok: false, intent, error: actionFailure(error) };
  }
  throw new Response("Unknown intent", { status: 400 });
}

/** Everything the app holds on the order's customer, as JSON or CSV (Shopify's customer data request, by hand). */
export async function customerExportFile(shop: string, id: string, asked: string | null): Promise<Response> {
  const format = asked ?? "json";
  if (format !== "json" && format !== "csv") throw new Response("format must be json or csv", { status: 400 });
  // Another shop's order, or one without a valid phone: nothing to export here.
  const data = await customerExport(prisma, shop, id);
  if (!data) throw new Response("Not found", { status: 404 });
  return format === "csv"
    ? fileResponse(customerExportCsv(data), "csv", `customer-${data.phoneKey}.csv`)
    : fileResponse(JSON.stringify(data, null, 2), "json", `customer-${data.phoneKey}.json`);
}
