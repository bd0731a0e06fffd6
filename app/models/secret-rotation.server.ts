/**
 * Re-seals every stored secret under the current ENCRYPTION_KEY: values sealed
 * under ENCRYPTION_KEY_PREVIOUS or in the older "v1" format (no shop/purpose
 * binding), and Shopify's session tokens, sealing those still stored in clear.
 * One transaction: either every secret is re-sealed or none is.
 * Idempotent: a second run finds nothing to do. Reports counts, never secrets.
 */
import type { PrismaClient as Db } from "@prisma/client";
import { scrubReplacedTokens, sealSessionTokens } from "./session-tokens.server";
import type { SecretBox, SecretPurpose } from "../crypto/secret-box.server";

export interface RotationReport {
  /** Secrets read (API keys and events secrets). */
  checked: number;
  /** Secrets sealed again under the current key and format. */
  resealed: number;
  /** Shopify tokens that were stored in clear, sealed now. */
  sealed: number;
  /** Secrets already current: left untouched. */
  current: number;
}

export class KeyRotationError extends Error {
  constructor(readonly unreadable: { shop: string; purpose: SecretPurpose }[]) {
    super(
      `${unreadable.length} secret(s) open under neither ENCRYPTION_KEY nor ENCRYPTION_KEY_PREVIOUS; nothing was changed: ` +
        unreadable.map((u) => `${u.shop} (${u.purpose})`).join(", "),
    );
    this.name = "KeyRotationError";
  }
}

const COLUMNS = [
  { column: "sellerApiKeyCipher", purpose: "seller-api-key" },
  { column: "eventsSecretCipher", purpose: "events-secret" },
] as const;

const FEED_COLUMNS = [
  { column: "metaTokenCipher", purpose: "meta-access-token" },
  { column: "tiktokTokenCipher", purpose: "tiktok-access-token" },
] as const;

/** Each sealed column of one row, opened and sealed again when stale; the new values (counted in the report). */
function resealColumns<C extends string>(
  box: SecretBox,
  shop: string,
  row: Record<C, string | null>,
  columns: readonly { column: C; purpose: SecretPurpose }[],
  report: RotationReport,
  unreadable: { shop: string; purpose: SecretPurpose }[],
): Partial<Record<C, string>> {
  const data: Partial<Record<C, string>> = {};
  for (const { column, purpose } of columns) {
    const sealed = row[column];
    if (!sealed) continue;
    report.checked++;
    const context = { shop, purpose };
    try {
      const opened = box.openWithStatus(sealed, context);
      if (!opened.stale) {
        report.current++;
        continue;
      }
      data[column] = box.seal(opened.plaintext, context);
      report.resealed++;
    } catch {
      unreadable.push(context);
    }
  }
  return data;
}

export async function rotateStoredSecrets(db: Db, box: SecretBox): Promise<RotationReport> {
  const report = await db.$transaction(async (tx) => {
    const shops = await tx.shop.findMany({
      where: { OR: [{ sellerApiKeyCipher: { not: null } }, { eventsSecretCipher: { not: null } }] },
      select: { id: true, domain: true, sellerApiKeyCipher: true, eventsSecretCipher: true },
    });
    const report: RotationReport = { checked: 0, resealed: 0, sealed: 0, current: 0 };
    const unreadable: { shop: string; purpose: SecretPurpose }[] = [];
    const updates: { id: string; data: Partial<Record<(typeof COLUMNS)[number]["column"], string>> }[] = [];
    for (const shop of shops) {
      const data = resealColumns(box, shop.domain, shop, COLUMNS, report, unreadable);
      if (Object.keys(data).length > 0) updates.push({ id: shop.id, data });
    }
    // The conversion feed's access tokens (AdFeed), the same way.
    const feeds = await tx.adFeed.findMany({
      where: { OR: [{ metaTokenCipher: { not: null } }, { tiktokTokenCipher: { not: null } }] },
      select: { shop: true, metaTokenCipher: true, tiktokTokenCipher: true },
    });
    const feedUpdates: { shop: string; data: Partial<Record<(typeof FEED_COLUMNS)[number]["column"], string>> }[] = [];
    for (const feed of feeds) {
      const data = resealColumns(box, feed.shop, feed, FEED_COLUMNS, report, unreadable);
      if (Object.keys(data).length > 0) feedUpdates.push({ shop: feed.shop, data });
    }
    const sessions = await sealSessionTokens(tx, box, { reseal: true });
    unreadable.push(...sessions.unreadable);
    if (unreadable.length > 0) throw new KeyRotationError(unreadable);
    for (const update of updates)
      await tx.shop.update({ where: { id: update.id }, data: update.data, select: { id: true } });
    for (const update of feedUpdates)
      await tx.adFeed.update({ where: { shop: update.shop }, data: update.data, select: { shop: true } });
    report.checked += sessions.checked;
    report.resealed += sessions.resealed;
    report.sealed += sessions.sealed;
    report.current += sessions.current;
    return report;
  });
  // Clear tokens were replaced: their bytes leave the file too.
  if (report.sealed > 0) await scrubReplacedTokens(db);
  return report;
}
