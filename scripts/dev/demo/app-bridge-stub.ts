/**
 * What the preview serves in place of Shopify's App Bridge script
 * (https://cdn.shopify.com/shopifycloud/app-bridge.js): `window.shopify` with
 * idToken() (a session token minted by the preview server), toast.show()
 * (console and the preview's toast area), and same-origin fetches carrying
 * `Authorization: Bearer <token>`, as App Bridge adds for the app's requests.
 * It also follows the token-exchange bounce page to its `shopify-reload` URL,
 * and draws the contextual save bar (save-bar-stub.ts).
 */
import { SAVE_BAR_STUB } from "./save-bar-stub";
export const APP_BRIDGE_STUB_PATH = "/__preview/app-bridge.js";
export const TOKEN_PATH = "/__preview/token";
export const OPEN_PATH = "/__preview/open";
export const UNINSTALL_PATH = "/__preview/uninstall";

export function appBridgeStub(config: { apiKey: string; shop: string; locale: string }): string {
  return `(() => {
  if (window.shopify && window.shopify.__preview) return;
  const config = ${JSON.stringify(config)};
  const nativeFetch = window.fetch.bind(window);
  let cached = null;
  let pending = null;
  function idToken() {
    if (cached && cached.expiresAt - Date.now() > 60000) return Promise.resolve(cached.token);
    pending = pending || nativeFetch(${JSON.stringify(TOKEN_PATH)}, { cache: "no-store" })
      .then((r) => r.json())
      .then((body) => { cached = body; return body.token; })
      .finally(() => { pending = null; });
    return pending;
  }
  window.fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith("/__preview/") || request.headers.has("Authorization")) {
      return nativeFetch(request);
    }
    const headers = new Headers(request.headers);
    headers.set("Authorization", "Bearer " + (await idToken()));
    return nativeFetch(new Request(request, { headers }));
  };
  const noop = () => undefined;
  const later = async () => undefined;
  function toast(message, options) {
    const isError = Boolean(options && options.isError);
    console.info("[App Bridge toast]" + (isError ? " (error)" : ""), String(message));
    try {
      if (window.parent !== window && window.parent.__previewToast) window.parent.__previewToast(String(message), isError);
    } catch (e) { /* another origin */ }
    return "toast-" + Date.now();
  }
  window.shopify = {
    __preview: true,
    config: { apiKey: config.apiKey, shop: config.shop, locale: config.locale, host: "" },
    origin: location.origin,
    ready: Promise.resolve(),
    environment: { embedded: true, mobile: false, pos: false },
    idToken,
    toast: { show: toast, hide: noop },
    loading: noop,
    modal: { show: later, hide: later, toggle: later },
  };
${SAVE_BAR_STUB}
  // The admin draws these in its own frame, not inside the app.
  const style = document.createElement("style");
  style.textContent = "ui-nav-menu, ui-title-bar, ui-save-bar { display: none !important; }";
  (document.head || document.documentElement).appendChild(style);
  // Token-exchange bounce page: reload the page it names, here, with a fresh token.
  if (location.pathname === "/auth/session-token") {
    const reload = new URLSearchParams(location.search).get("shopify-reload");
    if (reload) {
      const named = new URL(reload, location.href);
      const target = new URL(named.pathname + named.search, location.origin);
      idToken().then((token) => {
        target.searchParams.set("id_token", token);
        location.replace(target.href);
      });
    }
  }
})();
`;
}
