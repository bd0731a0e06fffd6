/**
 * Headless Chromium (the one scripts/dev/lib/chromium-path.ts finds, through
 * playwright-core) showing an embedded
 * admin page as the Shopify admin would, with no internet:
 *
 * - App Bridge cannot load from Shopify's CDN, so `https://cdn.shopify.com/**`
 *   is answered with a stub: `window.shopify.idToken()` gives a minted session
 *   token, `toast.show()` records into `window.__toasts`, same-origin fetches get
 *   `Authorization: Bearer <token>` (what App Bridge does for the app's data
 *   requests), and the token-exchange bounce page (/auth/session-token) is
 *   followed to its `shopify-reload` URL with a fresh id_token.
 * - `<ui-save-bar>` draws a save bar whose buttons press the app's own, and
 *   leaving with unsaved changes asks the browser's confirm dialog (save-bar-stub.ts).
 * - Any stylesheet from the CDN (the Inter font) gets empty CSS.
 * - Every other address but 127.0.0.1 is refused.
 * - Every response body is kept, so a test can assert a secret never left the server.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { inject } from "vitest";
import { SAVE_BAR_STUB } from "../../scripts/dev/demo/save-bar-stub";
import { MODAL_STUB } from "../../scripts/dev/demo/modal-stub";
import { CHROMIUM_ARGS, DESKTOP_CHROME_UA } from "../../scripts/dev/lib/chromium-path";
export { CHROMIUM_ARGS, DESKTOP_CHROME_UA };

const root = join(import.meta.dirname, "..", "..");
export const SCREENSHOT_DIR = join(root, "test-results", "e2e");

export function launchBrowser(): Promise<Browser> {
  // Resolved once by test/e2e/global-setup.ts.
  return chromium.launch({ executablePath: inject("chromiumPath"), args: CHROMIUM_ARGS, headless: true });
}

export interface AppBridgeStubConfig {
  apiKey: string;
  shop: string;
  locale: string;
  /** The session token idToken() answers with. */
  token: string;
}

/** The App Bridge stand-in, as the script the CDN would serve. */
export function appBridgeStub(config: AppBridgeStubConfig): string {
  return `(() => {
  const config = ${JSON.stringify(config)};
  const toasts = (window.__toasts = window.__toasts || []);
  const nativeFetch = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url, location.href).origin !== location.origin || request.headers.has("Authorization")) {
      return nativeFetch(request);
    }
    const headers = new Headers(request.headers);
    headers.set("Authorization", "Bearer " + config.token);
    return nativeFetch(new Request(request, { headers }));
  };
  const noop = () => undefined;
  window.shopify = {
    config: { apiKey: config.apiKey, shop: config.shop, locale: config.locale, host: "" },
    origin: location.origin,
    ready: Promise.resolve(),
    environment: { embedded: true, mobile: false, pos: false },
    idToken: async () => config.token,
    toast: {
      show(message, options) {
        toasts.push({ message: String(message), isError: Boolean(options && options.isError) });
        return "toast-" + toasts.length;
      },
      hide: noop,
    },
    loading: noop,
  };
${SAVE_BAR_STUB}
${MODAL_STUB}
  // The admin draws <ui-nav-menu> in its own sidebar; inside the iframe it is not shown.
  const style = document.createElement("style");
  style.textContent =
    "ui-nav-menu, ui-title-bar, ui-save-bar { display: none !important; }";
  (document.head || document.documentElement).appendChild(style);
  // Bounce page of the token-exchange strategy: App Bridge reloads shopify-reload with a token.
  if (location.pathname === "/auth/session-token") {
    const reload = new URLSearchParams(location.search).get("shopify-reload");
    const target = reload ? new URL(reload, location.href) : null;
    if (target && target.origin === location.origin) {
      target.searchParams.set("id_token", config.token);
      location.replace(target.href);
    }
  }
})();`;
}

export interface CapturedResponse {
  url: string;
  status: number;
  body: string;
}

export interface EmbeddedSession {
  context: BrowserContext;
  page: Page;
  /** Every response the page received so far, bodies included. */
  responses(): Promise<CapturedResponse[]>;
  /** Messages passed to shopify.toast.show. */
  toasts(): Promise<string[]>;
  /** Requests refused because they were not for 127.0.0.1 (other than the CDN). */
  refused: string[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** A phone's browser (the Shopify mobile app's webview looks like this). */
export const PHONE_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36";

export interface SessionOptions {
  viewport?: { width: number; height: number };
  userAgent?: string;
}

export async function openEmbeddedSession(
  browser: Browser,
  stub: AppBridgeStubConfig,
  options: SessionOptions = {},
): Promise<EmbeddedSession> {
  const context = await browser.newContext({
    userAgent: options.userAgent ?? DESKTOP_CHROME_UA,
    viewport: options.viewport ?? { width: 1280, height: 900 },
    locale: stub.locale,
  });
  const refused: string[] = [];
  await context.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1") return route.continue();
    if (url.hostname === "cdn.shopify.com") {
      if (url.pathname.endsWith(".js")) {
        return route.fulfill({ status: 200, contentType: "text/javascript", body: appBridgeStub(stub) });
      }
      if (url.pathname.endsWith(".css")) return route.fulfill({ status: 200, contentType: "text/css", body: "" });
    }
    refused.push(url.href);
    return route.abort("blockedbyclient");
  });

  const page = await context.newPage();
  const pending: Promise<CapturedResponse>[] = [];
  page.on("response", (response) => {
    pending.push(
      response
        .text()
        .catch(() => "")
        .then((body) => ({ url: response.url(), status: response.status(), body })),
    );
  });

  return {
    context,
    page,
    responses: () => Promise.all(pending),
    toasts: () =>
      page.evaluate(() =>
        ((window as unknown as { __toasts?: { message: string }[] }).__toasts ?? []).map((t) => t.message),
      ),
    refused,
    async screenshot(name) {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const path = join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    close: () => context.close(),
  };
}
