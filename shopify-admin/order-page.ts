/**
 * GET /store/<store>/orders/<id>: a small read-only HTML page showing an order as the
 * Shopify admin would after the app wrote back to it (tags, financial status,
 * fulfilments with tracking, cancellation). The path mirrors the admin's own
 * (https://admin.shopify.com/store/<store>/orders/<id>), so a link to Shopify's admin
 * can be pointed here by swapping the origin. Loopback callers only, like the control API.
 */
import type { OrderRecord } from "./records";
import { riskSummaryOf } from "./resolvers";

export const ORDER_PAGE_PATH = /^\/store\/([a-z0-9][a-z0-9-]*)\/orders\/(\d+)$/;

/** The page of an order (numeric id or gid) of shop on the stand-in at standInUrl. */
export function orderPageUrl(standInUrl: string, shop: string, orderId: string | number): string {
  return `${standInUrl}/store/${shop.replace(/\.myshopify\.com$/, "")}/orders/${String(orderId).split("/").pop()}`;
}

const escapeHtml = (value: unknown) => String(value ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** ASCII labels for Shopify's enum values (PARTIALLY_PAID: "Partially paid"). */
const label = (value: string | null | undefined) =>
  value ? value.charAt(0) + value.slice(1).toLowerCase().replace(/_/g, " ") : "-";

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { margin: 0; font: 14px/1.45 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, sans-serif; background: #f1f1f1; color: #303030; }
  header { background: #1a1a1a; color: #e3e3e3; padding: 12px 20px; }
  main { max-width: 860px; margin: 20px auto; padding: 0 16px; display: grid; gap: 16px; }
  section { background: #fff; border-radius: 12px; padding: 16px; box-shadow: 0 1px 0 rgba(0,0,0,.07); }
  h1 { font-size: 20px; margin: 0; } h2 { font-size: 15px; margin: 0 0 8px; }
  .badges { display: flex; gap: 8px; flex-wrap: wrap; margin-top: 8px; }
  .badge { padding: 2px 10px; border-radius: 8px; background: #e3e3e3; }
  .badge.paid { background: #cdfee1; } .badge.cancelled { background: #fedad9; } .badge.fulfilled { background: #cdfee1; }
  ul { margin: 0; padding-left: 20px; } table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #ebebeb; }
  .tag { display: inline-block; padding: 1px 8px; margin: 2px; border-radius: 8px; background: #ebebeb; }
  .badge.high { background: #fedad9; } .badge.medium { background: #fff1e3; } .badge.low { background: #cdfee1; }
</style>
</head>
<body>
<header>Shopify Admin stand-in · read-only</header>
<main>${body}</main>
</body>
</html>
`;
}

export function orderPageHtml(shop: string, order: OrderRecord): string {
  const financial = order.displayFinancialStatus;
  const fulfilment = typeof order.displayFulfillmentStatus === "string" ? order.displayFulfillmentStatus : null;
  const tags = order.tags.length
    ? order.tags.map((t) => `<span class="tag">${escapeHtml(t)}</span>`).join(" ")
    : "<p>No tags</p>";
  const fulfilments = order.fulfillments.length
    ? `<table><thead><tr><th scope="col">Fulfilment</th><th scope="col">Status</th><th scope="col">Tracking number</th><th scope="col">Carrier</th></tr></thead><tbody>${order.fulfillments
        .map((f) => {
          const tracking = f.trackingInfo[0];
          return `<tr><td>${escapeHtml(f.id.split("/").pop())}</td><td>${escapeHtml(label(f.status))}</td><td data-tracking>${escapeHtml(tracking?.number ?? "-")}</td><td>${escapeHtml(tracking?.company ?? "-")}</td></tr>`;
        })
        .join("")}</tbody></table>`
    : "<p>Not fulfilled</p>";
  const lines = order.lineItems
    .map(
      (li) =>
        `<li>${escapeHtml(li.quantity)} × ${escapeHtml(li.title)}${li.sku ? ` (${escapeHtml(li.sku)})` : ""}</li>`,
    )
    .join("");
  // As the admin's risk card: each app's latest assessment, its level and its facts.
  const risk = riskSummaryOf(order);
  const assessments = risk.assessments.length
    ? risk.assessments
        .map(
          (a) =>
            `<div data-risk-assessment><p><span class="badge ${escapeHtml(a.riskLevel.toLowerCase())}" data-risk-level="${escapeHtml(a.riskLevel)}">${escapeHtml(label(a.riskLevel))} risk</span> · ${escapeHtml(a.provider.title)}</p><ul>${a.facts
              .map(
                (f) =>
                  `<li data-risk-fact data-sentiment="${escapeHtml(f.sentiment)}">${escapeHtml(f.description)}</li>`,
              )
              .join("")}</ul></div>`,
        )
        .join("")
    : "<p>No risk assessment</p>";
  const cancelled = order.cancelledAt
    ? `<span class="badge cancelled" data-cancelled>Cancelled ${escapeHtml(order.cancelledAt.slice(0, 10))}</span>`
    : "";
  return page(
    `Order ${order.name} · ${shop}`,
    `<section>
  <h1>Order ${escapeHtml(order.name)}</h1>
  <p>${escapeHtml(shop)} · placed ${escapeHtml(String(order.createdAt).slice(0, 16).replace("T", " "))}</p>
  <div class="badges">
    <span class="badge${financial === "PAID" ? " paid" : ""}" data-financial-status="${escapeHtml(financial)}">Payment: ${escapeHtml(label(financial))}</span>
    <span class="badge${fulfilment === "FULFILLED" ? " fulfilled" : ""}" data-fulfillment-status="${escapeHtml(fulfilment ?? "")}">Fulfilment: ${escapeHtml(label(fulfilment))}</span>
    ${cancelled}
  </div>
</section>
<section aria-labelledby="risk"><h2 id="risk">Fraud and risk analysis</h2><p data-risk-recommendation="${escapeHtml(risk.recommendation)}">Recommendation: ${escapeHtml(label(risk.recommendation))}</p>${assessments}</section>
<section aria-labelledby="tags"><h2 id="tags">Tags</h2><div data-tags>${tags}</div></section>
<section aria-labelledby="fulfilments"><h2 id="fulfilments">Fulfilments</h2>${fulfilments}</section>
<section aria-labelledby="items"><h2 id="items">Items</h2><ul>${lines}</ul></section>`,
  );
}

export function orderNotFoundHtml(shop: string, id: string): string {
  return page(`No order ${id}`, `<section><h1>No order ${escapeHtml(id)} in ${escapeHtml(shop)}</h1></section>`);
}
