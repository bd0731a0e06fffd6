import type { TransactionClient } from "./webhook-delivery.server";

/** app/uninstalled: stop work for the shop but keep its data until shop/redact. */
export async function markShopUninstalled(tx: TransactionClient, shop: string, at: Date): Promise<void> {
  await tx.session.deleteMany({ where: { shop } });
  await tx.shop.upsert({
    where: { domain: shop },
    create: { domain: shop, uninstalledAt: at },
    update: { uninstalledAt: at },
  });
}

/** app/scopes_update: keep the stored sessions' scope in step with what the merchant granted. */
export async function updateGrantedScopes(tx: TransactionClient, shop: string, scopes: string[]): Promise<void> {
  const scope = scopes.join(",");
  await tx.session.updateMany({ where: { shop }, data: { scope } });
  await tx.shop.updateMany({ where: { domain: shop }, data: { scopes: scope } });
}

/** shop/redact (48 hours after uninstall): delete everything the app holds for the shop. */
export async function eraseShop(tx: TransactionClient, shop: string): Promise<void> {
  await tx.session.deleteMany({ where: { shop } });
  await tx.timelineEvent.deleteMany({ where: { shop } });
  await tx.orderLink.deleteMany({ where: { shop } });
  await tx.job.deleteMany({ where: { shop } });
  await tx.apiCall.deleteMany({ where: { shop } });
  await tx.dataRequest.deleteMany({ where: { shop } });
  await tx.skuMapping.deleteMany({ where: { shop } });
  await tx.cityAlias.deleteMany({ where: { shop } });
  await tx.shop.deleteMany({ where: { domain: shop } });
  // Delivery rows are kept (ids and topics only, no personal data) so a
  // redelivered shop/redact is still recognised as done.
}
