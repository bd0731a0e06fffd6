/** An order's page in Shopify's admin (opened in the top frame, outside the app). */
export function shopifyOrderUrl(shop: string, orderId: string): string {
  return `https://admin.shopify.com/store/${encodeURIComponent(shop.replace(/\.myshopify\.com$/, ""))}/orders/${encodeURIComponent(orderId)}`;
}
