/**
 * A shop row connected to a Seller Order API as if its key had been verified in
 * Settings (sealed key, base URL, settings), for tests and benchmarks.
 */
import type { PrismaClient } from "@prisma/client";
import { createSecretBox } from "../../../app/crypto/secret-box.server";

export const SHOP = "atlas-beauty.myshopify.com";

export async function connectShop(
  db: PrismaClient,
  options: { shop?: string; apiKey: string; baseUrl: string; settings?: Record<string, unknown> },
) {
  const box = createSecretBox(process.env.ENCRYPTION_KEY!);
  return db.shop.upsert({
    where: { domain: options.shop ?? SHOP },
    create: {
      domain: options.shop ?? SHOP,
      sellerApiKeyCipher: box.seal(options.apiKey, { shop: options.shop ?? SHOP, purpose: "seller-api-key" }),
      sellerApiKeyLast4: options.apiKey.slice(-4),
      sellerApiBaseUrl: options.baseUrl,
      keyVerifiedAt: new Date(),
      settings: JSON.stringify(options.settings ?? {}),
    },
    update: {
      sellerApiKeyCipher: box.seal(options.apiKey, { shop: options.shop ?? SHOP, purpose: "seller-api-key" }),
      sellerApiBaseUrl: options.baseUrl,
      settings: JSON.stringify(options.settings ?? {}),
      pausedReason: null,
    },
  });
}
