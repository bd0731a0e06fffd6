/**
 * The storefront pixel (extensions/conversion-pixel) on the shop: created with
 * its collect URL when the feed is switched on (updated when it exists, since
 * Shopify keeps one pixel per app and shop), deleted when the feed is switched
 * off, so no click id is collected for a feed that is off.
 */
import {
  PAGE_CALL,
  runAdminGraphql,
  throwIfUserErrors,
  type AdminGraphqlClient,
} from "../shopify/admin-graphql.server";
import { WEB_PIXEL, WEB_PIXEL_CREATE, WEB_PIXEL_DELETE, WEB_PIXEL_UPDATE } from "../shopify/documents";

interface UserErrorEntry {
  code?: string | null;
  field?: string[] | null;
  message: string;
}
interface WriteAnswer {
  webPixel: { id: string } | null;
  userErrors: UserErrorEntry[];
}

/** Where the pixel sends an order's click ids: scoped to the shop by its token. */
export const collectUrlOf = (appUrl: string, pixelToken: string) =>
  `${appUrl.replace(/\/+$/, "")}/api/pixel/${encodeURIComponent(pixelToken)}`;

/** Creates or updates the app's pixel with this collect URL; its id. Throws a ShopifyAdminError. */
export async function registerWebPixel(
  admin: AdminGraphqlClient,
  collectUrl: string,
  knownId: string | null,
): Promise<string> {
  const webPixel = { settings: JSON.stringify({ collectUrl }) };
  const update = async (id: string) => {
    const data = await runAdminGraphql<{ webPixelUpdate: WriteAnswer }>(
      admin,
      WEB_PIXEL_UPDATE,
      { id, webPixel },
      PAGE_CALL,
    );
    return data.webPixelUpdate;
  };
  if (knownId) {
    const updated = await update(knownId);
    if (updated.webPixel) return updated.webPixel.id;
    if (!updated.userErrors.some((e) => e.code === "NOT_FOUND"))
      throwIfUserErrors("WebPixelUpdate", "add the storefront pixel", updated.userErrors);
  }
  const created = (
    await runAdminGraphql<{ webPixelCreate: WriteAnswer }>(admin, WEB_PIXEL_CREATE, { webPixel }, PAGE_CALL)
  ).webPixelCreate;
  if (created.webPixel) return created.webPixel.id;
  // Already there (a reinstall, or an id we lost): update the shop's own.
  if (created.userErrors.some((e) => e.code === "TAKEN")) {
    const existing = await runAdminGraphql<{ webPixel: { id: string } | null }>(admin, WEB_PIXEL, {}, PAGE_CALL);
    if (existing.webPixel) {
      const updated = await update(existing.webPixel.id);
      if (updated.webPixel) return updated.webPixel.id;
      throwIfUserErrors("WebPixelUpdate", "add the storefront pixel", updated.userErrors);
    }
  }
  throwIfUserErrors("WebPixelCreate", "add the storefront pixel", created.userErrors);
  throw new Error("webPixelCreate answered neither a pixel nor an error");
}

/** Removes the app's pixel; a pixel already gone is fine. Throws a ShopifyAdminError. */
export async function removeWebPixel(admin: AdminGraphqlClient, id: string): Promise<void> {
  const data = await runAdminGraphql<{
    webPixelDelete: { deletedWebPixelId: string | null; userErrors: UserErrorEntry[] };
  }>(admin, WEB_PIXEL_DELETE, { id }, PAGE_CALL);
  const errors = data.webPixelDelete.userErrors.filter((e) => e.code !== "NOT_FOUND");
  throwIfUserErrors("WebPixelDelete", "remove the storefront pixel", errors);
}
