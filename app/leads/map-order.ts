/**
 * Shopify order -> lead, with every decision explained as a finding.
 *
 * Pure: no I/O, no clock (the context carries `now`), indexes memoised per reference list
 * so a worker maps thousands of orders a second. The result says whether to send the
 * lead, hold it for the merchant, or skip the order, and why.
 */
import type { LeadInput, LeadItem } from "../seller-api/lead-input";
import { cityIndexFor, type CityMatch, matchCityWithIndex } from "./city-match";
import { normalizeCityKey } from "./city-key";
import { compileGatewayPatterns, detectCod } from "./cod";
import { findRecentDuplicate } from "./duplicates";
import { externalRefFor } from "./external-ref";
import { boundOrderFields, MAX_LINE_ITEMS } from "./field-limits";
import { capFindings, makeFinding } from "./findings";
import { formatCents, MAX_AMOUNT_CENTS, toCents } from "./money";
import { normalizeMoroccanPhone, type PhoneResult } from "./phone";
import { resolveSettings } from "./settings";
import { type CatalogueEntry, catalogueIndexFor, mappingIndexFor, matchSkuWithIndex, normalizeSku } from "./sku-match";
import type {
  ConfigurableFindingCode,
  Finding,
  MappingContext,
  MappingResult,
  MappingSettings,
  Money,
  ProductSuggestion,
  ShopAddress,
  ShopLineItem,
  ShopOrder,
  SkuMappingTarget,
} from "./types";

const MAD = "MAD";

const gatewayPatternCache = new WeakMap<MappingSettings, string[]>();
function gatewayPatterns(settings: MappingSettings): string[] {
  let compiled = gatewayPatternCache.get(settings);
  // Stryker disable next-line ConditionalExpression: a cache; compiling the patterns again gives the same list, only slower
  if (!compiled) gatewayPatternCache.set(settings, (compiled = compileGatewayPatterns(settings.codGatewayPatterns)));
  return compiled;
}

/** Everything `mapOrderToLead` needs apart from `now` and the recent leads. */
export type PreparedContext = Omit<MappingContext, "now" | "recentLeads">;

/**
 * Builds every index once (catalogue, mappings, cities and aliases, settings) so the first
 * order mapped pays nothing extra. Map with `{ ...prepared, now, recentLeads }`: the
 * indexes are found again as long as the same arrays are passed.
 */
export function buildMatchingContext<T extends PreparedContext>(context: T): T {
  // Stryker disable CallExpression: these only warm caches; mapping builds the same indexes on first use
  catalogueIndexFor(context.catalogue);
  mappingIndexFor(context.skuMappings);
  cityIndexFor(context.cities, context.cityAliases);
  gatewayPatterns(resolveSettings(context.settings));
  // Stryker restore CallExpression
  return context;
}

function clean(text: string | undefined): string {
  return typeof text === "string" ? text.replace(/\s+/g, " ").trim() : "";
}

function personName(
  address: ShopAddress | { firstName?: string; lastName?: string; name?: string } | undefined,
): string {
  if (!address) return "";
  // Stryker disable next-line MethodExpression: equivalent, join writes a missing part as "" and clean trims the space it leaves
  return clean([address.firstName, address.lastName].filter(Boolean).join(" ")) || clean(address.name);
}

function lineTitle(line: ShopLineItem): string {
  return clean(line.name) || clean([line.title, line.variantTitle].filter(Boolean).join(" - ")) || `line ${line.id}`;
}

function isStale(fetchedAt: Date | undefined, now: Date, maxAgeMinutes: number): boolean {
  if (!(fetchedAt instanceof Date) || Number.isNaN(fetchedAt.getTime())) return true;
  return now.getTime() - fetchedAt.getTime() > maxAgeMinutes * 60_000;
}

function targetKey(target: SkuMappingTarget): string {
  return "sku" in target ? `sku:${normalizeSku(target.sku)}` : `product:${target.product_id}`;
}

/** The key a lead's product is remembered under for duplicate checks. */
function productKey(target: SkuMappingTarget, entry: CatalogueEntry | undefined): string {
  return entry ? `product:${entry.product.id}` : targetKey(target);
}

function pickAmount(order: ShopOrder, settings: MappingSettings): { money?: Money; currency: string | null } {
  const shopCurrency = (
    order.currency ||
    order.currentTotal?.currencyCode ||
    settings.shopCurrency ||
    ""
  ).toUpperCase();
  const unpaid = !order.financialStatus || order.financialStatus.toLowerCase() === "pending";
  if (shopCurrency === MAD) {
    const outstanding = order.totalOutstanding;
    // A part-paid order (sendAllOrders) collects only what is still owed.
    if (!unpaid && outstanding && (outstanding.currencyCode || MAD).toUpperCase() === MAD)
      return { money: outstanding, currency: MAD };
    return { money: order.currentTotal, currency: MAD };
  }
  const presentment = order.currentTotalPresentment;
  const presentmentCurrency = (presentment?.currencyCode || order.presentmentCurrency || "").toUpperCase();
  if (presentment && presentmentCurrency === MAD) return { money: presentment, currency: MAD };
  return { currency: shopCurrency || null };
}

/** Maps one Shopify order to a lead; never throws on a well-typed order. */
export function mapOrderToLead(shopifyOrder: ShopOrder, context: MappingContext): MappingResult {
  // Over the line cap no line is read at all: one finding says how many there are.
  const lineCount = shopifyOrder.lineItemCount ?? shopifyOrder.lineItems.length;
  const overCap = lineCount > MAX_LINE_ITEMS;
  // Every typed field within its bound before any matcher reads it (linear time, small findings).
  const order = boundOrderFields(overCap ? { ...shopifyOrder, lineItems: [] } : shopifyOrder);
  const settings = resolveSettings(context.settings);
  const policy = settings.holdPolicy;
  const severityOf = (code: ConfigurableFindingCode): Finding["severity"] =>
    policy[code] === "hold" ? "blocking" : "warning";
  const findings: Finding[] = [];
  const now = context.now;

  // 1. Orders that are not for the platform at all.
  if (order.cancelledAt)
    findings.push(makeFinding("cancelled", "blocking", "order", { cancelledAt: order.cancelledAt }));
  if (order.test && !settings.sendTestOrders) findings.push(makeFinding("test_order", "blocking", "order"));
  if (!settings.sendAllOrders) {
    const cod = detectCod(order, gatewayPatterns(settings));
    if (!cod.cod) {
      findings.push(
        makeFinding("not_cod", "blocking", "order", {
          reason: cod.reason,
          gateways: cod.gateways.join(", "),
          financialStatus: cod.financialStatus ?? null,
        }),
      );
    }
  }
  const lines = order.lineItems.filter(
    (l) => !l.giftCard && l.requiresShipping && Number.isInteger(l.quantity) && l.quantity > 0,
  );
  if (lines.length === 0 && !overCap)
    findings.push(makeFinding("no_shippable_items", "blocking", "items", { lineCount: order.lineItems.length }));
  if (findings.length > 0) return { decision: "skip", findings, needsRefresh: [], productKeys: [] };
  if (overCap) {
    const finding = makeFinding("too_many_items", "blocking", "items", { lineCount, max: MAX_LINE_ITEMS });
    return { decision: "hold", findings: [finding], needsRefresh: [], productKeys: [] };
  }

  const needsRefresh: MappingResult["needsRefresh"] = [];

  // 2. Items: the shop's mappings, then the catalogue; the same platform item is summed.
  const catalogue = catalogueIndexFor(context.catalogue);
  const mappings = mappingIndexFor(context.skuMappings);
  const merged = new Map<string, { target: SkuMappingTarget; entry?: CatalogueEntry; quantity: number }>();
  const missingSku: { params: Record<string, string | number>; suggestions: ProductSuggestion[] }[] = [];
  const outOfStockSeen = new Set<string>();
  let catalogueMiss = false;
  lines.forEach((line, lineIndex) => {
    const match = matchSkuWithIndex(line, catalogue, mappings);
    const base = { lineItemId: line.id, lineIndex, title: lineTitle(line), quantity: line.quantity };
    if (match.status === "missing") {
      missingSku.push({ params: base, suggestions: match.suggestions });
      return;
    }
    if (match.status === "unmatched") {
      catalogueMiss = true;
      findings.push(
        makeFinding(
          "sku_unmatched",
          severityOf("sku_unmatched"),
          "items",
          {
            ...base,
            via: match.via,
            sku: match.sku ?? null,
            unknown: match.unknown.join(", "),
            mappingId: match.mappingId ?? null,
          },
          match.suggestions,
        ),
      );
    }
    for (const item of match.items) {
      const key = targetKey(item.target);
      const quantity = item.quantityPerUnit * line.quantity;
      const existing = merged.get(key);
      if (existing) existing.quantity += quantity;
      else merged.set(key, { target: item.target, entry: item.entry, quantity });
      if (item.entry && !item.entry.inStock && !outOfStockSeen.has(key)) {
        outOfStockSeen.add(key);
        const name = item.entry.variant?.name
          ? `${item.entry.product.name} (${item.entry.variant.name})`
          : item.entry.product.name;
        findings.push(
          makeFinding("item_out_of_stock", severityOf("item_out_of_stock"), "items", {
            ...base,
            sku: item.entry.sku,
            productId: item.entry.product.id,
            name,
          }),
        );
      }
    }
  });
  if (catalogueMiss && isStale(context.catalogueFetchedAt, now, settings.referenceMaxAgeMinutes))
    needsRefresh.push("catalogue");

  const items: LeadItem[] = [];
  const productKeySet = new Set<string>();
  let costCents = 0;
  for (const { target, entry, quantity } of merged.values()) {
    items.push("sku" in target ? { sku: target.sku, quantity } : { product_id: target.product_id, quantity });
    productKeySet.add(productKey(target, entry));
    if (entry) costCents += (catalogue.priceCents.get(entry.product.id) ?? 0) * quantity;
  }
  // A line without SKU can only be left out; with nothing left there is no lead to send.
  for (const { params, suggestions } of missingSku) {
    const severity = items.length === 0 ? "blocking" : severityOf("sku_missing");
    findings.push(
      makeFinding("sku_missing", severity, "items", { ...params, leftOut: severity === "warning" }, suggestions),
    );
  }
  const productKeys = [...productKeySet].sort();

  // 3. Phone: the first usable of shipping, order, customer and billing phones.
  const phoneCandidates = [
    order.shippingAddress?.phone,
    order.phone,
    order.customer?.phone,
    order.billingAddress?.phone,
  ];
  let phone: string | undefined;
  let unverified: string | undefined;
  let firstFailure: { raw: string; result: Extract<PhoneResult, { ok: false }> } | undefined;
  for (const raw of phoneCandidates) {
    // Stryker disable next-line ConditionalExpression,MethodExpression,StringLiteral: equivalent, a blank number normalises to "missing", which counts as no number below
    if (typeof raw !== "string" || raw.trim() === "") continue;
    const result = normalizeMoroccanPhone(raw);
    if (result.ok && result.verified) {
      phone = result.phone;
      break;
    }
    if (result.ok) unverified ??= result.phone;
    else firstFailure ??= { raw: raw.trim(), result };
  }
  if (!phone && unverified) {
    phone = unverified;
    findings.push(makeFinding("phone_unverified", severityOf("phone_unverified"), "customer_phone", { phone }));
  }
  if (!phone) {
    // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, blank numbers are skipped above, so no failure reads "missing"
    if (!firstFailure || firstFailure.result.reason === "missing") {
      findings.push(makeFinding("phone_missing", "blocking", "customer_phone"));
    } else {
      const { raw, result } = firstFailure;
      const code =
        result.reason === "landline"
          ? "phone_landline"
          : result.reason === "foreign"
            ? "phone_foreign"
            : "phone_invalid";
      findings.push(
        makeFinding(code, "blocking", "customer_phone", {
          raw,
          ...(result.callingCode ? { callingCode: result.callingCode } : {}),
          ...(result.country ? { country: result.country } : {}),
          ...(result.lineType ? { lineType: result.lineType } : {}),
        }),
      );
    }
  }

  // 4. Customer name: the platform requires one.
  const address = order.shippingAddress ?? order.billingAddress;
  let customerName =
    personName(order.shippingAddress) || personName(order.customer) || personName(order.billingAddress);
  if (!customerName) {
    customerName = clean(`Client ${order.name ?? ""}`);
    findings.push(makeFinding("name_missing", severityOf("name_missing"), "customer_name", { name: customerName }));
  }

  // 5. City.
  const cityMatch: CityMatch = matchCityWithIndex(
    cityIndexFor(context.cities, context.cityAliases),
    { city: address?.city, address1: address?.address1, address2: address?.address2, province: address?.province },
    settings.cityFuzzyThreshold,
  );
  let leadCity: string | number | undefined;
  let deliveryFeeCents = 0;
  let addressExtra = "";
  let matchedCity: MappingResult["city"];
  if (cityMatch.status === "missing") {
    findings.push(makeFinding("city_missing", severityOf("city_missing"), "city"));
  } else if (cityMatch.status === "unmatched") {
    leadCity = cityMatch.input;
    findings.push(
      makeFinding(
        "city_unmatched",
        severityOf("city_unmatched"),
        "city",
        { input: cityMatch.input },
        cityMatch.suggestions,
      ),
    );
    if (isStale(context.citiesFetchedAt, now, settings.referenceMaxAgeMinutes)) needsRefresh.push("cities");
  } else {
    const { city } = cityMatch;
    leadCity = city.id;
    deliveryFeeCents = toCents(city.delivery_fee) ?? 0;
    matchedCity = { id: city.id, name: city.name, score: cityMatch.score, via: cityMatch.via };
    const cityField = clean(address?.city);
    if (cityMatch.via === "fuzzy") {
      findings.push(
        makeFinding(
          "city_fuzzy",
          severityOf("city_fuzzy"),
          "city",
          { input: cityMatch.input, cityId: city.id, city: city.name, score: cityMatch.score },
          cityMatch.suggestions,
        ),
      );
    }
    if (cityMatch.source !== "city") {
      findings.push(
        makeFinding("city_from_address", severityOf("city_from_address"), "city", {
          source: cityMatch.source,
          cityField: cityField || null,
          cityId: city.id,
          city: city.name,
        }),
      );
    }
    // A district typed as the city ("Maarif") still tells the courier where to go.
    const keepCityText =
      cityField && (cityMatch.source !== "city" || cityMatch.via === "district" || cityMatch.via === "shop_alias");
    if (keepCityText && normalizeCityKey(cityField) !== normalizeCityKey(city.name)) addressExtra = cityField;
  }

  // 6. Amount to collect, in MAD cents.
  let totalClient: string | undefined;
  const { money, currency } = pickAmount(order, settings);
  if (!money) {
    findings.push(makeFinding("currency_not_mad", severityOf("currency_not_mad"), "total_client", { currency }));
  } else {
    const cents = toCents(money.amount);
    if (cents === undefined || cents > MAX_AMOUNT_CENTS) {
      findings.push(makeFinding("total_invalid", "blocking", "total_client", { amount: String(money.amount ?? "") }));
    } else {
      totalClient = formatCents(cents);
      // The platform's rule needs the city's fee: without a known city it cannot apply it.
      const minimum = costCents + deliveryFeeCents;
      if (matchedCity && (cents === 0 || cents < minimum)) {
        findings.push(
          makeFinding("total_below_cost", severityOf("total_below_cost"), "total_client", {
            total: totalClient,
            minimum: formatCents(minimum),
            itemsCost: formatCents(costCents),
            deliveryFee: formatCents(deliveryFeeCents),
          }),
        );
      }
    }
  }

  // 7. Possible duplicate of a recent lead of the shop.
  if (phone) {
    const duplicate = findRecentDuplicate(
      context.recentLeads,
      phone,
      productKeys,
      order.id,
      now,
      settings.duplicateWindowMinutes,
    );
    if (duplicate) {
      findings.push(
        makeFinding("possible_duplicate", severityOf("possible_duplicate"), "customer_phone", {
          otherOrderId: duplicate.lead.orderId,
          otherOrder: duplicate.lead.orderName ?? duplicate.lead.orderId,
          minutesAgo: duplicate.minutesAgo,
          windowMinutes: settings.duplicateWindowMinutes,
        }),
      );
    }
  }

  // 8. The lead, when the platform would not refuse it outright.
  let lead: LeadInput | undefined;
  if (phone && items.length > 0) {
    const addressText = [clean(address?.address1), clean(address?.address2), addressExtra].filter(Boolean).join(", ");
    const externalRef = externalRefFor(order);
    lead = {
      customer_name: customerName,
      customer_phone: phone,
      ...(leadCity !== undefined && leadCity !== "" ? { city: leadCity } : {}),
      ...(addressText ? { address: addressText } : {}),
      ...(totalClient !== undefined ? { total_client: totalClient } : {}),
      items,
      ...(externalRef ? { external_ref: externalRef } : {}),
    };
  }

  const blocked = !lead || findings.some((f) => f.severity === "blocking");
  const result: MappingResult = {
    decision: blocked ? "hold" : "send",
    findings: capFindings(findings),
    needsRefresh,
    productKeys,
  };
  if (lead) result.lead = lead;
  if (totalClient !== undefined) result.totalClient = totalClient;
  if (phone) result.phone = phone;
  if (matchedCity) result.city = matchedCity;
  return result;
}
