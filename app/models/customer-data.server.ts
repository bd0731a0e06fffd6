/**
 * Compliance webhooks for a customer's personal data held in order links:
 * what is held (customers/data_request) and erasing it (customers/redact).
 */
import type { Prisma } from "@prisma/client";
import { addTimeline } from "./timeline.server";

type Tx = Prisma.TransactionClient;

export interface CustomerDataQuery {
  customerId?: string | null;
  orderIds: string[];
}

const REDACTED = "[redacted]";

function readQuery(payload: Record<string, unknown>, ordersField: "orders_requested" | "orders_to_redact"): CustomerDataQuery {
  const customer = payload.customer as { id?: unknown } | undefined;
  const orders = Array.isArray(payload[ordersField]) ? (payload[ordersField] as unknown[]) : [];
  return {
    customerId: customer?.id != null ? String(customer.id) : null,
    orderIds: orders.map(String).filter((id) => /^\d+$/.test(id)),
  };
}

function linksOf(tx: Tx, shop: string, query: CustomerDataQuery) {
  const or: Prisma.OrderLinkWhereInput[] = [];
  if (query.orderIds.length) or.push({ orderId: { in: query.orderIds } });
  if (query.customerId) or.push({ customerId: query.customerId });
  if (or.length === 0) return Promise.resolve([]);
  return tx.orderLink.findMany({ where: { shop, OR: or } });
}

/** customers/data_request: record which of the customer's personal fields each order holds. */
export async function recordDataRequest(tx: Tx, shop: string, payload: Record<string, unknown>): Promise<void> {
  const query = readQuery(payload, "orders_requested");
  const links = await linksOf(tx, shop, query);
  const held = links.map((link) => {
    const lead = link.leadJson ? (JSON.parse(link.leadJson) as Record<string, unknown>) : {};
    return {
      orderId: link.orderId,
      orderName: link.orderName,
      leadRef: link.leadRef,
      fields: ["customer_name", "customer_phone", "address", "city"].filter((f) => lead[f] != null && lead[f] !== REDACTED),
      orderSnapshot: link.payload.length > 0,
    };
  });
  await tx.dataRequest.create({
    data: { shop, customerId: query.customerId ?? null, orderIds: JSON.stringify(query.orderIds), held: JSON.stringify(held) },
  });
}

/** customers/redact: erase the customer's personal data from stored snapshots, leads and overrides. */
export async function redactCustomer(tx: Tx, shop: string, payload: Record<string, unknown>): Promise<number> {
  const links = await linksOf(tx, shop, readQuery(payload, "orders_to_redact"));
  for (const link of links) {
    const lead = link.leadJson ? (JSON.parse(link.leadJson) as Record<string, unknown>) : null;
    if (lead) {
      for (const field of ["customer_name", "customer_phone", "address"]) if (field in lead) lead[field] = REDACTED;
    }
    await tx.orderLink.update({
      where: { id: link.id },
      data: {
        // Only what identifies the order itself is kept.
        payload: JSON.stringify({ id: Number(link.orderId), name: link.orderName, redacted: true }),
        leadJson: lead ? JSON.stringify(lead) : null,
        phone: null,
        customerId: null,
        overrides: "{}",
        findings: "[]",
      },
    });
    await addTimeline(tx, shop, link.id, { kind: "redacted", message: "Customer data erased at Shopify's request" });
  }
  await tx.dataRequest.updateMany({ where: { shop, customerId: readQuery(payload, "orders_to_redact").customerId ?? "-" }, data: { held: "[]" } });
  return links.length;
}
