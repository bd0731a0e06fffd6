/**
 * The conversion pixel's code, run in Node with Shopify's own pixel API types
 * (@shopify/web-pixels-extension): the extension registers on Shopify's
 * `WebPixel::Render` point; a landing page's click id is kept; at checkout the
 * click ids and the buyer's consent go to the app once; a consent withdrawn
 * sends the refusal alone.
 */
import type { ExtensionApi, PixelEventsCheckoutCompleted, PixelEventsPageViewed } from "@shopify/web-pixels-extension";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  clicksFromUrl,
  fbcOf,
  readStoredClicks,
  signalFor,
  STORED_CLICKS_KEY,
} from "../../extensions/conversion-pixel/src/signal";

const COLLECT = "https://app.example.com/api/pixel/tok123";

function context(href: string): PixelEventsCheckoutCompleted["context"] {
  return {
    document: { location: { href } as Location, referrer: "", characterSet: "UTF-8", title: "Thank you" },
    navigator: { userAgent: "Mozilla/5.0", language: "fr", languages: ["fr"], cookieEnabled: true },
    window: {} as PixelEventsCheckoutCompleted["context"]["window"],
  } as PixelEventsCheckoutCompleted["context"];
}

function checkoutCompleted(orderId: string | null): PixelEventsCheckoutCompleted {
  return {
    id: "evt-1",
    clientId: "client-1",
    name: "checkout_completed",
    seq: 5,
    timestamp: new Date().toISOString(),
    type: "standard" as PixelEventsCheckoutCompleted["type"],
    context: context("https://atlas-beauty.ma/checkouts/cn/abc/thank-you"),
    data: {
      checkout: {
        token: "chk-abc",
        order: orderId ? { id: orderId, customer: null } : null,
      } as PixelEventsCheckoutCompleted["data"]["checkout"],
    },
  };
}

describe("conversion pixel: the signal", () => {
  it("GIVEN a landing URL with fbclid and ttclid WHEN read THEN both are kept with the time", () => {
    expect(clicksFromUrl("https://shop.ma/products/x?fbclid=IwAR2abc&ttclid=E.C.P.xyz", 1000)).toEqual({
      fbclid: "IwAR2abc",
      ttclid: "E.C.P.xyz",
      at: 1000,
    });
    expect(clicksFromUrl("https://shop.ma/?utm_source=x", 1000)).toBeNull();
    expect(clicksFromUrl("https://shop.ma/?fbclid=<script>", 1000)).toBeNull();
  });

  it("GIVEN marketing allowed WHEN the checkout completes THEN the order's click ids, fbc built from a kept fbclid", () => {
    const stored = readStoredClicks(
      JSON.stringify({ fbclid: "IwAR2abc", ttclid: "E.C.P.xyz", at: 1_700_000_000_000 }),
      1_700_000_100_000,
    );
    const signal = signalFor(
      checkoutCompleted("5550001"),
      true,
      { fbp: "fb.1.1700000000000.42", ttp: "ttp-1" },
      stored,
    );
    expect(signal).toEqual({
      v: 1,
      orderId: "5550001",
      checkoutToken: "chk-abc",
      marketing: true,
      fbp: "fb.1.1700000000000.42",
      fbc: fbcOf("IwAR2abc", 1_700_000_000_000),
      ttclid: "E.C.P.xyz",
      ttp: "ttp-1",
      pageUrl: "https://atlas-beauty.ma/checkouts/cn/abc/thank-you",
    });
    expect(signal!.fbc).toBe("fb.1.1700000000000.IwAR2abc");
  });

  it("GIVEN marketing refused WHEN the checkout completes THEN only the refusal travels; no order id, no signal", () => {
    expect(signalFor(checkoutCompleted("5550001"), false, { fbp: "fb.1.1700000000000.42" }, null)).toEqual({
      v: 1,
      orderId: "5550001",
      checkoutToken: "chk-abc",
      marketing: false,
    });
    expect(signalFor(checkoutCompleted(null), true, {}, null)).toBeNull();
  });

  it("GIVEN a click kept more than 28 days ago or unreadable WHEN read THEN it no longer counts", () => {
    expect(readStoredClicks(JSON.stringify({ fbclid: "a", at: 0 }), 29 * 24 * 3600_000)).toBeNull();
    expect(readStoredClicks("{not json", 0)).toBeNull();
  });
});

describe("conversion pixel: registered with Shopify's API", () => {
  let extend: ((api: ExtensionApi) => void) | undefined;
  beforeAll(async () => {
    (globalThis as { shopify?: unknown }).shopify = {
      extend: (point: string, fn: (api: ExtensionApi) => void) => {
        expect(point).toBe("WebPixel::Render");
        extend = fn;
      },
    };
    await import("../../extensions/conversion-pixel/src/index");
  });
  afterEach(() => vi.unstubAllGlobals());

  function run(marketing: boolean) {
    const handlers = new Map<string, (event: unknown) => Promise<void> | void>();
    let consent: ((e: { customerPrivacy: { marketingAllowed: boolean } }) => void) | undefined;
    const storage = new Map<string, string>();
    const cookies: Record<string, string> = { _fbp: "fb.1.1700000000000.42", _ttp: "ttp-1" };
    const api = {
      settings: { collectUrl: COLLECT },
      analytics: { subscribe: (name: string, cb: (event: unknown) => void) => (handlers.set(name, cb), () => true) },
      browser: {
        cookie: { get: async (name?: string) => cookies[name ?? ""] ?? "", set: async () => "" },
        localStorage: {
          getItem: async (key: string) => storage.get(key) ?? null,
          setItem: async (key: string, value: string) => void storage.set(key, value),
        },
      },
      init: { customerPrivacy: { marketingAllowed: marketing } },
      customerPrivacy: { subscribe: (_: string, cb: typeof consent) => ((consent = cb), () => true) },
    } as unknown as ExtensionApi;
    extend!(api);
    return { handlers, storage, withdraw: () => consent!({ customerPrivacy: { marketingAllowed: false } }) };
  }

  it("GIVEN an ad click then a checkout WHEN the pixel runs THEN the app receives the order's click ids once", async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal("fetch", fetch);
    const { handlers, storage } = run(true);
    const landing = { ...checkoutCompleted(null), name: "page_viewed", data: {} } as unknown as PixelEventsPageViewed;
    landing.context = context("https://atlas-beauty.ma/products/argan?fbclid=IwAR2abc");
    await handlers.get("page_viewed")!(landing);
    expect(JSON.parse(storage.get(STORED_CLICKS_KEY)!)).toMatchObject({ fbclid: "IwAR2abc" });
    await handlers.get("checkout_completed")!(checkoutCompleted("5550001"));
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(COLLECT);
    expect(init).toMatchObject({ method: "POST", keepalive: true, headers: { "content-type": "text/plain" } });
    expect(JSON.parse(String(init.body))).toMatchObject({
      orderId: "5550001",
      marketing: true,
      fbp: "fb.1.1700000000000.42",
      fbc: expect.stringMatching(/^fb\.1\.\d+\.IwAR2abc$/),
      ttp: "ttp-1",
    });
  });

  it("GIVEN the buyer withdraws marketing consent during the visit WHEN the checkout completes THEN no click id leaves", async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal("fetch", fetch);
    const { handlers, withdraw } = run(true);
    withdraw();
    await handlers.get("checkout_completed")!(checkoutCompleted("5550002"));
    expect(JSON.parse(String((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body))).toEqual({
      v: 1,
      orderId: "5550002",
      checkoutToken: "chk-abc",
      marketing: false,
    });
  });
});
