/**
 * Embedded admin requests with no network: an offline session is stored and a
 * session token is minted with Shopify's own test helpers, so
 * authenticate.admin validates it locally (token-exchange strategy).
 */
import type { SessionStorage } from "@shopify/shopify-app-session-storage";
import { getJwt, setUpValidSession } from "@shopify/shopify-api/test-helpers";

/** authenticate.admin answers bots with 410; tests are a browser. */
export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";

export async function storeOfflineSession(storage: SessionStorage, shop: string, scope = process.env.SCOPES!) {
  const session = setUpValidSession({
    shop,
    expires: new Date(Date.now() + 24 * 3600 * 1000),
    scope,
    accessToken: `shpat_test_${shop}`,
  });
  await storage.storeSession(session);
  return session;
}

export async function mintSessionToken(shop: string): Promise<string> {
  // getJwt takes the store name and appends .myshopify.com itself.
  const store = shop.replace(/\.myshopify\.com$/, "");
  const { token } = await getJwt(store, process.env.SHOPIFY_API_KEY!, process.env.SHOPIFY_API_SECRET!);
  return token;
}

export interface AdminRequestOptions extends RequestInit {
  /** "document": first load with id_token in the URL; "fetch": later data request with a Bearer token. */
  as?: "document" | "fetch";
}

export async function adminRequest(shop: string, path: string, options: AdminRequestOptions = {}): Promise<Request> {
  const { as: kind = "document", ...init } = options;
  const token = await mintSessionToken(shop);
  const url = new URL(path, process.env.SHOPIFY_APP_URL);
  const headers = new Headers(init.headers);
  headers.set("User-Agent", BROWSER_USER_AGENT);
  if (kind === "document") {
    url.searchParams.set("embedded", "1");
    url.searchParams.set("shop", shop);
    url.searchParams.set(
      "host",
      Buffer.from(`admin.shopify.com/store/${shop.replace(".myshopify.com", "")}`).toString("base64"),
    );
    url.searchParams.set("id_token", token);
  } else {
    headers.set("Authorization", `Bearer ${token}`);
  }
  return new Request(url, { ...init, headers });
}
