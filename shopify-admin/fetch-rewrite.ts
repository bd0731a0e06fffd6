/**
 * Points @shopify/shopify-api's fetch at the stand-in (DESIGN §4): the client always
 * calls https://{shop}/admin/..., so `https://*.myshopify.com` is rewritten to the
 * stand-in's URL with the shop in SHOP_HEADER. Loopback passes through; anything else
 * is refused (recorded in `refused`), so no call leaves the machine.
 */
export const SHOP_HEADER = "x-fake-shop-domain";

export interface FetchRewrite {
  refused: string[];
  uninstall(): void;
}

export async function installFetchRewrite(standInUrl: string, refused: string[] = []): Promise<FetchRewrite> {
  // The Remix package installs its adapter's fetch when first imported: import it first
  // so it cannot overwrite the rewrite afterwards.
  await import("@shopify/shopify-app-remix/adapters/node");
  await import("@shopify/shopify-app-remix/server");
  const runtime = await import("@shopify/shopify-api/runtime");
  const previous = runtime.abstractFetch;
  const realFetch = globalThis.fetch;
  const rewrite = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    // The library calls fetch(url, init): read those as they are (a Request built
    // around them costs the calling process more than the call itself).
    const plain = typeof input === "string" || input instanceof URL;
    const url = new URL(plain ? String(input) : input.url);
    if (url.hostname === "127.0.0.1" || url.hostname === "localhost") return realFetch(input, init);
    if (url.protocol === "https:" && url.hostname.endsWith(".myshopify.com")) {
      const request = plain ? undefined : new Request(input, init);
      const method = request?.method ?? init?.method ?? "GET";
      const headers = new Headers(request?.headers ?? init?.headers);
      headers.set(SHOP_HEADER, url.hostname);
      const body =
        method === "GET" || method === "HEAD" ? undefined : request ? await request.arrayBuffer() : init?.body;
      return realFetch(`${standInUrl}${url.pathname}${url.search}`, {
        method,
        headers,
        body,
        signal: request?.signal ?? init?.signal,
      });
    }
    refused.push(url.href);
    throw new Error(`network is not allowed here: ${url.href}`);
  };
  runtime.setAbstractFetchFunc(rewrite as typeof fetch);
  return { refused, uninstall: () => runtime.setAbstractFetchFunc(previous) };
}
