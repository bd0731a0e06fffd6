/**
 * Is this order paid in cash on delivery? Shopify names the manual payment method as the
 * merchant wrote it, in any language, so the names are compared as folded phrases
 * ("Paiement à la livraison" matches "paiement a la livraison (COD)"), word by word so
 * that "COD" never matches inside "Barcode".
 */
import { phrase } from "./text";
import type { ShopOrder } from "./types";

export const DEFAULT_COD_GATEWAY_PATTERNS: readonly string[] = Object.freeze([
  "Cash on Delivery (COD)",
  "Cash on Delivery",
  "COD",
  "Paiement à la livraison",
  "Paiement a la livraison",
  "Paiement à la réception",
  "الدفع عند الاستلام",
  "الدفع عند التسليم",
]);

// Financial statuses of an order nobody has paid yet; a COD order stays "pending" until delivered.
const UNPAID_STATUSES = new Set(["pending", ""]);

export type CodCheck =
  | { cod: true; gateway: string }
  | {
      cod: false;
      reason: "no_gateway" | "other_gateway" | "already_paid";
      gateways: string[];
      financialStatus?: string;
    };

/** Patterns folded once; compare with `isCodGateway`. */
export function compileGatewayPatterns(patterns: readonly string[]): string[] {
  return patterns.map(phrase).filter((p) => p.length > 0);
}

// Shops have a handful of gateway names; fold each once.
const foldedGateways = new Map<string, string>();

export function isCodGateway(gateway: string, compiledPatterns: readonly string[]): boolean {
  let padded = foldedGateways.get(gateway);
  // Stryker disable next-line ConditionalExpression: equivalent, a cache; folding again gives the same phrase
  if (padded === undefined) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, when the cache is emptied only changes memory use
    if (foldedGateways.size >= 1000) foldedGateways.clear();
    foldedGateways.set(gateway, (padded = ` ${phrase(gateway)} `));
  }
  return compiledPatterns.some((p) => padded.includes(` ${p} `));
}

export function detectCod(order: ShopOrder, compiledPatterns: readonly string[]): CodCheck {
  const gateways = order.paymentGatewayNames.filter((g) => typeof g === "string" && g.trim() !== "");
  const status = (order.financialStatus ?? "").toLowerCase();
  const gateway = gateways.find((g) => isCodGateway(g, compiledPatterns));
  if (gateway === undefined) {
    return {
      cod: false,
      reason: gateways.length === 0 ? "no_gateway" : "other_gateway",
      gateways,
      financialStatus: status || undefined,
    };
  }
  if (!UNPAID_STATUSES.has(status)) return { cod: false, reason: "already_paid", gateways, financialStatus: status };
  return { cod: true, gateway };
}
