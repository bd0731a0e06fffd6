/** JSON shapes of leads: the public list element and detail, and the control API's full record. */
import type { StoredItem, StoredLead } from "./store";

const publicItem = (i: StoredItem) => ({
  sku: i.resolved?.sku ?? i.sku,
  product_id: i.resolved?.product_id ?? i.product_id,
  quantity: i.quantity,
});

/** Contract fields, plus the fields the seller's space shows (damaged leads and their anomalies). */
export function leadListElement(lead: StoredLead) {
  return {
    id: lead.id,
    ref: lead.ref,
    confirmation_status: lead.confirmation_status,
    shipping_status: lead.shipping_status,
    total_client: lead.total_client,
    external_ref: lead.external_ref,
    damaged: lead.damaged,
    anomalies: lead.anomalies,
    created_at: lead.created_at,
  };
}

export function leadDetail(lead: StoredLead) {
  return {
    id: lead.id,
    ref: lead.ref,
    confirmation_status: lead.confirmation_status,
    shipping_status: lead.shipping_status,
    tracking_number: lead.tracking_number,
    seller_profit: lead.seller_profit,
    external_ref: lead.external_ref,
    store: lead.store,
    customer_name: lead.customer_name,
    customer_phone: lead.customer_phone,
    city_id: lead.city_id,
    address: lead.address,
    total_client: lead.total_client,
    items: lead.items.map(publicItem),
    damaged: lead.damaged,
    anomalies: lead.anomalies,
    created_at: lead.created_at,
    updated_at: lead.updated_at,
  };
}

/** Every stored field, for tests and the demo (control API only). */
export function controlLead(lead: StoredLead) {
  return {
    id: lead.id,
    ref: lead.ref,
    account: lead.account,
    store: lead.store,
    key_id: lead.key_id,
    external_ref: lead.external_ref,
    customer_name: lead.customer_name,
    customer_phone: lead.customer_phone,
    city: lead.city,
    city_id: lead.city_id,
    address: lead.address,
    total_client: lead.total_client,
    items: lead.items.map((i) => ({
      sku: i.sku,
      product_id: i.product_id,
      quantity: i.quantity,
      resolved: i.resolved,
    })),
    anomalies: lead.anomalies,
    corrected_anomalies: lead.corrected_anomalies,
    damaged: lead.damaged,
    confirmation_status: lead.confirmation_status,
    shipping_status: lead.shipping_status,
    tracking_number: lead.tracking_number,
    seller_profit: lead.seller_profit,
    created_at: lead.created_at,
    updated_at: lead.updated_at,
  };
}

export type LeadListElement = ReturnType<typeof leadListElement>;
export type LeadDetail = ReturnType<typeof leadDetail>;
export type ControlLead = ReturnType<typeof controlLead>;
