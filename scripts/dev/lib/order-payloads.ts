/**
 * orders/create webhook payloads in Shopify's REST shape (the fields the app
 * reads plus the usual neighbours), for tests, benchmarks and the demo.
 */
export interface OrderSpec {
  id: number;
  name?: string;
  phone?: string | null;
  firstName?: string;
  lastName?: string;
  city?: string;
  address1?: string;
  province?: string;
  items?: {
    sku: string | null;
    quantity?: number;
    price?: string;
    title?: string;
    variantId?: number;
    productId?: number;
  }[];
  gateway?: string;
  financialStatus?: string;
  currency?: string;
  shipping?: string;
  /** Overrides the computed total (items + shipping). */
  total?: string;
  cancelledAt?: string | null;
  updatedAt?: string;
  createdAt?: string;
  customerId?: number;
  test?: boolean;
}

const cents = (amount: string) => Math.round(Number(amount) * 100);
const money = (c: number) => (c / 100).toFixed(2);

export function webhookOrder(spec: OrderSpec): Record<string, unknown> {
  const items = spec.items ?? [{ sku: "ARG-OIL-100", quantity: 1, price: "199.00", title: "Huile d'argan 100 ml" }];
  const shipping = spec.shipping ?? "30.00";
  const subtotal = items.reduce((sum, i) => sum + cents(i.price ?? "100.00") * (i.quantity ?? 1), 0);
  const total = spec.total ?? money(subtotal + cents(shipping));
  const currency = spec.currency ?? "MAD";
  const created = spec.createdAt ?? new Date().toISOString();
  const firstName = spec.firstName ?? "Salma";
  const lastName = spec.lastName ?? "Bennani";
  const address = {
    first_name: firstName,
    last_name: lastName,
    name: `${firstName} ${lastName}`,
    address1: spec.address1 ?? "12 Rue Ibn Battouta",
    address2: null,
    city: spec.city ?? "Casablanca",
    province: spec.province ?? null,
    zip: "20000",
    country: "Morocco",
    country_code: "MA",
    phone: spec.phone === undefined ? "0612345678" : spec.phone,
    company: null,
  };
  const set = (amount: string) => ({
    shop_money: { amount, currency_code: currency },
    presentment_money: { amount, currency_code: currency },
  });
  return {
    id: spec.id,
    admin_graphql_api_id: `gid://shopify/Order/${spec.id}`,
    name: spec.name ?? `#${1000 + (spec.id % 100000)}`,
    order_number: 1000 + (spec.id % 100000),
    email: "client@example.ma",
    phone: null,
    created_at: created,
    updated_at: spec.updatedAt ?? created,
    cancelled_at: spec.cancelledAt ?? null,
    cancel_reason: spec.cancelledAt ? "customer" : null,
    currency,
    presentment_currency: currency,
    financial_status: spec.financialStatus ?? "pending",
    fulfillment_status: null,
    gateway: spec.gateway ?? "Cash on Delivery (COD)",
    payment_gateway_names: [spec.gateway ?? "Cash on Delivery (COD)"],
    test: spec.test ?? false,
    tags: "",
    note: null,
    total_price: total,
    current_total_price: total,
    current_total_price_set: set(total),
    total_outstanding: spec.financialStatus === "paid" ? "0.00" : total,
    subtotal_price: money(subtotal),
    total_shipping_price_set: set(shipping),
    customer: {
      id: spec.customerId ?? 7000000 + (spec.id % 1000),
      first_name: firstName,
      last_name: lastName,
      email: "client@example.ma",
      phone: null,
      default_address: address,
    },
    shipping_address: address,
    billing_address: address,
    line_items: items.map((item, index) => ({
      id: spec.id * 10 + index,
      variant_id: item.variantId ?? 44000000000 + index,
      product_id: item.productId ?? 8000000000 + index,
      sku: item.sku,
      name: item.title ?? item.sku ?? "Article",
      title: item.title ?? item.sku ?? "Article",
      variant_title: null,
      quantity: item.quantity ?? 1,
      current_quantity: item.quantity ?? 1,
      fulfillable_quantity: item.quantity ?? 1,
      price: item.price ?? "100.00",
      requires_shipping: true,
      gift_card: false,
      taxable: false,
    })),
    shipping_lines: [{ title: "Livraison", price: shipping, code: "Standard" }],
  };
}
