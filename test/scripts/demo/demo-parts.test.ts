/** The demo's and replay's pieces on their own: options, payload files, summary, signing, preview server. */
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../../../scripts/dev/lib/args";
import { OrderFileError, readOrderFiles } from "../../../scripts/dev/lib/order-files";
import { hmacBase64, signedWebhookHeaders } from "../../../scripts/dev/lib/webhook-signing";
import { parseDemoOptions } from "../../../scripts/dev/demo/options";
import { BUILT_IN_ORDERS_DIR, expectationsOf } from "../../../scripts/dev/demo/run-demo";
import {
  adEventsLine,
  adEventsText,
  compareWithExpectations,
  formatTable,
  progressLine,
  summarize,
  type LinkRow,
  type OrderSummary,
} from "../../../scripts/dev/demo/summary";
import {
  isLoopbackAddress,
  isLoopbackHostHeader,
  rewriteHtml,
  safeAppPath,
  startPreviewServer,
  type PreviewServer,
} from "../../../scripts/dev/demo/preview-server";
import { hmacBase64 as testHmac } from "../../helpers/webhooks";
import { flowTriggersByOrder, readbackOf } from "../../../scripts/dev/demo/shopify-readback";
import { writtenBackChange } from "../../../scripts/dev/demo/watch-statuses";

describe("demo options", () => {
  it("defaults to app 8080, sandbox 4010, Shopify stand-in 4020, preview 8081 and the built-in orders", () => {
    expect(parseDemoOptions([])).toMatchObject({
      port: 8080,
      sandboxPort: 4010,
      shopifyAdminPort: 4020,
      metaPort: 4030,
      tiktokPort: 4031,
      previewPort: 8081,
      json: false,
      timeoutSeconds: 180,
      rateLimitPerMinute: 600,
    });
    expect(parseDemoOptions([]).ordersDir).toBeUndefined();
  });

  it("reads every option, in both --name value and --name=value forms", () => {
    expect(
      parseDemoOptions([
        "--orders",
        "dir",
        "--json",
        "--timeout=30",
        "--port",
        "9000",
        "--sandbox-port=9100",
        "--shopify-admin-port",
        "9200",
        "--meta-port",
        "9300",
        "--tiktok-port=9301",
      ]),
    ).toMatchObject({
      ordersDir: "dir",
      json: true,
      timeoutSeconds: 30,
      port: 9000,
      sandboxPort: 9100,
      shopifyAdminPort: 9200,
      metaPort: 9300,
      tiktokPort: 9301,
      previewPort: 9001,
    });
  });

  it("refuses unknown options, bad ports and two services on one port", () => {
    expect(() => parseDemoOptions(["--prot", "1"])).toThrow(UsageError);
    expect(() => parseDemoOptions(["--port", "http"])).toThrow(/--port must be a port/);
    expect(() => parseDemoOptions(["--port", "4010"])).toThrow(/--port and --sandbox-port are both 4010/);
    expect(() => parseDemoOptions(["--sandbox-port", "4020"])).toThrow(
      /--sandbox-port and --shopify-admin-port are both 4020/,
    );
    expect(() => parseDemoOptions(["--meta-port", "4020"])).toThrow(
      /--shopify-admin-port and --meta-port are both 4020/,
    );
    expect(() => parseDemoOptions(["--tiktok-port", "4030"])).toThrow(/--meta-port and --tiktok-port are both 4030/);
    expect(() => parseDemoOptions(["--timeout"])).toThrow(/needs a value/);
  });

  it("runs on its embedded PostgreSQL by default (kept, or started over with --fresh), or on the PostgreSQL URL given", () => {
    expect(parseDemoOptions([])).toMatchObject({ database: { kind: "embedded" }, fresh: false });
    expect(parseDemoOptions(["--fresh"])).toMatchObject({ database: { kind: "embedded" }, fresh: true });
    const url = "postgresql://cod:s3cret@127.0.0.1:5432/cod_demo";
    expect(parseDemoOptions(["--database-url", url]).database).toEqual({ kind: "postgres-url", url });
    expect(() => parseDemoOptions(["--fresh", "--database-url", url])).toThrow(/not both/);
    // Only PostgreSQL. The URL is never echoed.
    expect(() => parseDemoOptions(["--database-url", "file:/tmp/x.db?pw=s3cret"])).toThrow(
      /--database-url must be a PostgreSQL URL/,
    );
    expect(() => parseDemoOptions(["--database-url", "mysql://u:s3cret@h/db"])).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining("s3cret") }),
    );
  });
});

describe("payload files", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "cod-orders-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads plain payloads, arrays of payloads and case files, in name order", () => {
    writeFileSync(join(dir, "b.json"), JSON.stringify([{ id: 2, name: "#2" }, { id: 3 }]));
    writeFileSync(join(dir, "a.json"), JSON.stringify({ id: 1, name: "#1" }));
    writeFileSync(
      join(dir, "c.json"),
      JSON.stringify({
        topic: "orders/cancelled",
        waitForSettled: true,
        expect: { state: "cancelled" },
        payload: { id: 1 },
      }),
    );
    writeFileSync(join(dir, "notes.txt"), "ignored");
    const read = readOrderFiles(dir);
    expect(read.map((d) => [d.source, d.topic, d.payload.id, d.waitForSettled])).toEqual([
      ["a.json", "orders/create", 1, false],
      ["b.json[0]", "orders/create", 2, false],
      ["b.json[1]", "orders/create", 3, false],
      ["c.json", "orders/cancelled", 1, true],
    ]);
    expect(read[3].expect).toEqual({ state: "cancelled", findings: [], anomalies: [] });
  });

  it("names the file that is not an order", () => {
    writeFileSync(join(dir, "d.json"), JSON.stringify({ hello: "world" }));
    expect(() => readOrderFiles(dir)).toThrow(/d\.json: not an order payload/);
    rmSync(join(dir, "d.json"));
    writeFileSync(join(dir, "e.json"), "{");
    expect(() => readOrderFiles(dir)).toThrow(OrderFileError);
    rmSync(join(dir, "e.json"));
    expect(() => readOrderFiles(join(dir, "missing"))).toThrow(/cannot read the directory/);
  });
});

describe("the built-in order set", () => {
  const deliveries = readOrderFiles(BUILT_IN_ORDERS_DIR);
  const creates = deliveries
    .filter((d) => d.topic === "orders/create")
    .map((d) => d.payload as Record<string, unknown> & { line_items: { sku: string | null }[] });
  const phones = creates.map((p) => (p.shipping_address as { phone: string | null }).phone);

  it("has at least 30 orders, each with an expected outcome", () => {
    const expected = expectationsOf(deliveries);
    expect(creates.length).toBeGreaterThanOrEqual(30);
    expect(new Set(creates.map((p) => String(p.id))).size).toBe(creates.length);
    expect([...expected.keys()].sort()).toEqual(creates.map((p) => String(p.id)).sort());
  });

  it("covers the cases the demo must show", () => {
    const skus = creates.flatMap((p) => p.line_items.map((l) => l.sku));
    expect(creates.some((p) => p.line_items.length > 1)).toBe(true);
    expect(skus).toEqual(
      expect.arrayContaining(["SMW-X8-BLK", "ATLS-SAFFRON-2G", "SHAVER-3D", "SMW-X8-PNK", "ZELLIGE-LAMP-01"]),
    );
    const cities = creates.map((p) => (p.shipping_address as { city: string }).city);
    expect(cities.some((c) => /\p{Script=Arabic}/u.test(c))).toBe(true);
    expect(cities).toContain("Casablenca");
    expect(phones.some((p) => p?.startsWith("+212"))).toBe(true);
    expect(phones.some((p) => p?.startsWith("00212"))).toBe(true);
    expect(phones.some((p) => p !== null && /^0\d \d\d/.test(p))).toBe(true);
    expect(phones).toContain(null);
    expect(phones.some((p) => p?.startsWith("05"))).toBe(true);
    expect(creates.some((p) => p.financial_status === "paid")).toBe(true);
    expect(creates.some((p) => p.currency !== "MAD")).toBe(true);
    expect(creates.some((p) => p.cancelled_at)).toBe(true);
    expect(deliveries.some((d) => d.topic === "orders/cancelled")).toBe(true);
    // The repeated order: same phone digits and product as an earlier one.
    const digits = phones.map((p) => p?.replace(/\D/g, ""));
    expect(digits.some((d, i) => d && digits.indexOf(d) !== i)).toBe(true);
  });
});

const link = (over: Partial<LinkRow> = {}): LinkRow => ({
  orderId: "1",
  orderName: "#1001",
  state: "created",
  leadRef: "ATB-100001",
  confirmationStatus: "new",
  shippingStatus: "pending",
  findings: JSON.stringify([{ code: "city_fuzzy", severity: "warning" }]),
  anomalies: "[]",
  totalClient: "229.00",
  phone: "0612345601",
  cityId: 101,
  leadJson: JSON.stringify({
    items: [
      { sku: "ARG-OIL-100", quantity: 1 },
      { product_id: 1007, quantity: 2 },
    ],
  }),
  cancelledAt: null,
  ...over,
});

describe("summary", () => {
  it("turns a link into the JSON summary with codes and lead items", () => {
    expect(summarize(link())).toEqual({
      order_id: "1",
      order_name: "#1001",
      state: "created",
      lead_ref: "ATB-100001",
      confirmation_status: "new",
      shipping_status: "pending",
      findings: ["city_fuzzy"],
      anomalies: [],
      total_client: "229.00",
      phone: "0612345601",
      city_id: 101,
      items: [
        { sku: "ARG-OIL-100", quantity: 1 },
        { product_id: 1007, quantity: 2 },
      ],
    });
    expect(summarize(link({ leadJson: null, findings: "not json" })).items).toEqual([]);
  });

  it("prints progress lines and a fixed-width table", () => {
    const row = summarize(link({ anomalies: JSON.stringify([{ code: "recent_duplicate" }]) }));
    expect(progressLine(12, 31, row)).toBe("[12/31] #1001 created ATB-100001 (city_fuzzy, recent_duplicate)");
    const table = formatTable([
      row,
      summarize(link({ orderName: "#1002", state: "held", leadRef: null, findings: "[]" })),
    ]).split("\n");
    expect(table[0]).toMatch(/^Order\s+State\s+Lead ref\s+Confirmation\s+Shipping\s+Findings\s+Anomalies\s+Ads told$/);
    expect(table[2].indexOf("created")).toBe(table[3].indexOf("held"));
    expect(table[3]).toContain("-");
  });

  it("shows the events the ad stand-ins accepted for each order, and counts them in one line", () => {
    const delivered: OrderSummary = {
      ...summarize(link({ shippingStatus: "delivered" })),
      ad_events: [
        { platform: "meta", event: "CODDelivered" },
        { platform: "tiktok", event: "CODDelivered" },
      ],
    };
    const refused: OrderSummary = {
      ...summarize(link({ orderId: "2", orderName: "#1002", confirmationStatus: "canceled" })),
      ad_events: [{ platform: "meta", event: "CODRefused" }],
    };
    const waiting: OrderSummary = { ...summarize(link({ orderId: "3", orderName: "#1003" })), ad_events: [] };
    expect(adEventsText(delivered.ad_events!)).toBe("CODDelivered to Meta and TikTok");
    const table = formatTable([delivered, refused, waiting]).split("\n");
    expect(table[2]).toMatch(/CODDelivered to Meta and TikTok$/);
    expect(table[3]).toMatch(/CODRefused to Meta$/);
    expect(table[4]).toMatch(/ -$/);
    expect(adEventsLine([delivered, refused, waiting])).toBe(
      "Conversion feed: 3 events accepted for 2 orders, 2 by Meta's stand-in and 1 by TikTok's (CODDelivered 2, CODRefused 1).",
    );
    expect(adEventsLine([waiting])).toBe("Conversion feed: no event accepted by Meta's or TikTok's stand-in yet.");
  });

  it("compares codes as sets and reports what differs", () => {
    const rows = [summarize(link())];
    expect(
      compareWithExpectations(rows, new Map([["1", { state: "created", findings: ["city_fuzzy"], anomalies: [] }]])),
    ).toEqual([]);
    expect(
      compareWithExpectations(rows, new Map([["1", { state: "held", findings: [], anomalies: [] }]])),
    ).toHaveLength(1);
    expect(
      compareWithExpectations(rows, new Map([["2", { state: "held", findings: [], anomalies: [] }]]))[0].actual,
    ).toBeNull();
  });
});

describe("what was written back to Shopify", () => {
  const none = { tags: [], fulfilled: false, paid: false, cancelled: false };

  it("names what became true between two write-back records, and nothing when nothing did", () => {
    expect(writtenBackChange(none, { ...none, tags: ["cod:lead:ATB-1", "cod:new"] })).toBe(
      "tagged cod:lead:ATB-1, cod:new",
    );
    expect(
      writtenBackChange(
        { ...none, tags: ["cod:lead:ATB-1", "cod:new"] },
        { ...none, tags: ["cod:lead:ATB-1", "cod:shipped"], fulfilled: true },
      ),
    ).toBe("tagged cod:shipped; fulfilled with its tracking number");
    expect(writtenBackChange({ ...none, fulfilled: true }, { ...none, fulfilled: true, paid: true })).toBe(
      "marked as paid",
    );
    expect(writtenBackChange({ ...none, tags: ["a"] }, { ...none, tags: [] })).toBe("");
    expect(writtenBackChange(none, none)).toBe("");
  });

  it("reads an order of the stand-in as the --json summary shows it", () => {
    const view = {
      id: "gid://shopify/Order/6180000001001",
      name: "#1001",
      createdAt: "2026-11-24T06:00:00Z",
      tags: ["cod:lead:ATB-100001", "cod:paid"],
      displayFinancialStatus: "PAID",
      displayFulfillmentStatus: "FULFILLED",
      canMarkAsPaid: false,
      cancelledAt: null,
      fulfillmentOrders: [],
      fulfillments: [
        {
          id: "gid://shopify/Fulfillment/1",
          status: "SUCCESS",
          trackingInfo: [{ number: "SBX1MA", company: "COD platform", url: null }],
        },
      ],
      lineItems: [],
    };
    expect(readbackOf(view)).toEqual({
      tags: ["cod:lead:ATB-100001", "cod:paid"],
      fulfillments: [{ status: "SUCCESS", tracking_number: "SBX1MA", company: "COD platform" }],
      financial_status: "PAID",
      paid: true,
      cancelled: false,
    });
    expect(
      readbackOf({ ...view, displayFinancialStatus: "VOIDED", cancelledAt: "2026-11-24T07:00:00Z", fulfillments: [] }),
    ).toMatchObject({
      paid: false,
      cancelled: true,
      fulfillments: [],
    });
  });
});

describe("Flow triggers in the summary", () => {
  it("lists each order's triggers oldest first, statuses and attention states spelled out", () => {
    const at = "2026-11-24T07:00:00Z";
    const lines = flowTriggersByOrder([
      {
        id: 3,
        at,
        shop: "s",
        handle: "lead-status-changed",
        payload: { order_id: 11, "Confirmation status": "confirmed", "Shipping status": "pending" },
      },
      { id: 1, at, shop: "s", handle: "lead-created", payload: { order_id: 11 } },
      { id: 2, at, shop: "s", handle: "order-needs-attention", payload: { order_id: 12, "Lead state": "held" } },
    ]);
    expect(Object.fromEntries(lines)).toEqual({
      "11": ["lead-created", "lead-status-changed confirmed/pending"],
      "12": ["order-needs-attention held"],
    });
  });
});

describe("webhook signing", () => {
  it("signs as Shopify does and as the app's tests verify", () => {
    const body = JSON.stringify({ id: 1, name: "#1001 الدار البيضاء" });
    expect(hmacBase64("secret", body)).toBe(testHmac("secret", body));
    const headers = signedWebhookHeaders(
      { topic: "orders/create", shop: "atlas-beauty.myshopify.com", secret: "secret" },
      body,
    );
    expect(headers).toMatchObject({
      "X-Shopify-Hmac-Sha256": createHmac("sha256", "secret").update(body).digest("base64"),
      "X-Shopify-Topic": "orders/create",
      "X-Shopify-Shop-Domain": "atlas-beauty.myshopify.com",
      "X-Shopify-API-Version": "2026-07",
    });
    expect(headers["X-Shopify-Webhook-Id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("admin preview server", () => {
  let upstream: Server;
  let preview: PreviewServer;
  const seen: {
    url: string;
    authorization?: string;
    host?: string;
    forwardedHost?: string;
    acceptEncoding?: string;
  }[] = [];
  const uninstalled: string[] = [];

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      seen.push({
        url: req.url ?? "",
        authorization: req.headers.authorization,
        host: req.headers.host,
        forwardedHost: req.headers["x-forwarded-host"] as string | undefined,
        acceptEncoding: req.headers["accept-encoding"],
      });
      if (req.url?.startsWith("/app")) {
        res.writeHead(200, {
          "content-type": "text/html",
          "content-security-policy": "frame-ancestors https://atlas-beauty.myshopify.com https://admin.shopify.com;",
          link: '<https://cdn.shopify.com/shopifycloud/app-bridge.js>; rel="preload"; as="script"',
        });
        res.end(
          '<html><head><script src="https://cdn.shopify.com/shopifycloud/app-bridge.js" data-api-key="k"></script></head><body>Home</body></html>',
        );
      } else {
        res
          .writeHead(302, {
            location: `http://127.0.0.1:${(upstream.address() as { port: number }).port}/auth/session-token?x=1`,
          })
          .end();
      }
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const appUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
    preview = await startPreviewServer({
      port: 0,
      appUrl,
      shops: [{ domain: "atlas-beauty.myshopify.com" }, { domain: "rif-market.myshopify.com" }],
      apiKey: "demo-api-key",
      apiSecret: "s3cret",
      shopifyAdminUrl: "http://127.0.0.1:4020",
      onUninstall: async (shop) => void uninstalled.push(shop),
    });
  });
  afterAll(async () => {
    await preview.close();
    upstream.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(new URL(path, preview.url), { headers, redirect: "manual" });

  it("serves the admin frame, the App Bridge stub and fresh session tokens signed with the app's secret", async () => {
    expect(await (await get("/")).text()).toContain('<iframe id="app"');
    expect(await (await get("/__preview/app-bridge.js")).text()).toContain("window.shopify = {");
    const { token, expiresAt } = (await (await get("/__preview/token")).json()) as { token: string; expiresAt: number };
    const [header, payload, signature] = token.split(".");
    expect(createHmac("sha256", "s3cret").update(`${header}.${payload}`).digest("base64url")).toBe(signature);
    expect(JSON.parse(Buffer.from(payload, "base64url").toString())).toMatchObject({
      aud: "demo-api-key",
      dest: "https://atlas-beauty.myshopify.com",
    });
    expect(expiresAt).toBeGreaterThan(Date.now());
  });

  it("opens only the app's pages, embedded, with a token", async () => {
    const open = await get("/__preview/open?path=/app/settings");
    expect(open.status).toBe(302);
    const target = new URL(open.headers.get("location")!, preview.url);
    expect(target.pathname).toBe("/app/settings");
    expect(Object.fromEntries(target.searchParams)).toMatchObject({
      embedded: "1",
      shop: "atlas-beauty.myshopify.com",
      locale: "en",
    });
    expect(target.searchParams.get("id_token")).toMatch(/^ey/);
    expect(safeAppPath("https://evil.example/app")).toBe("/app");
    expect(safeAppPath("/app/../healthz")).toBe("/app");
    expect(safeAppPath("//evil.example")).toBe("/app");
    expect(safeAppPath("/appx")).toBe("/app");
  });

  it("GIVEN the demo's link to a section of a page or a filtered list WHEN it is opened THEN the app opens there, not on Home", async () => {
    const ledger = await get(`/__preview/open?path=${encodeURIComponent("/app/activity#sync-ledger")}`);
    const target = new URL(ledger.headers.get("location")!, preview.url);
    expect([target.pathname, target.hash]).toEqual(["/app/activity", "#sync-ledger"]);
    expect(target.searchParams.get("id_token")).toMatch(/^ey/);

    const risky = await get(`/__preview/open?path=${encodeURIComponent("/app/orders?risk=high&id_token=forged")}`);
    const list = new URL(risky.headers.get("location")!, preview.url);
    expect([list.pathname, list.searchParams.get("risk")]).toEqual(["/app/orders", "high"]);
    // The preview's own token, not one carried in the path.
    expect(list.searchParams.getAll("id_token")).toHaveLength(1);
    expect(list.searchParams.get("id_token")).toMatch(/^ey/);
  });

  it("proxies the app with App Bridge swapped for the stub and framing allowed from the preview only", async () => {
    const page = await get("/app?embedded=1", { "accept-encoding": "gzip" });
    const html = await page.text();
    expect(html).toContain('<script src="/__preview/app-bridge.js" data-api-key="k">');
    expect(html).not.toContain("cdn.shopify.com");
    expect(page.headers.get("content-security-policy")).toBe("frame-ancestors 'self'");
    expect(page.headers.get("link")).toContain("</__preview/app-bridge.js>");
    expect(seen.at(-1)?.acceptEncoding).toBeUndefined();
    // Redirects to the app's own URL stay in the preview.
    expect((await get("/auth/login")).headers.get("location")).toBe("/auth/session-token?x=1");
  });

  it("tells the app the host the browser addressed, so a form posted from the preview passes Remix's origin check", async () => {
    const origin = new URL(preview.url).origin;
    await fetch(new URL("/app/settings", preview.url), {
      method: "POST",
      headers: { Origin: origin, "x-forwarded-host": "attacker.example" },
      body: "intent=save",
    });
    const post = seen.at(-1)!;
    // The app still sees its own Host (its URL, its checks); a forged X-Forwarded-Host is replaced.
    expect(post.host).toBe(`127.0.0.1:${(upstream.address() as { port: number }).port}`);
    // Remix compares the Origin's host with X-Forwarded-Host (else Host): they are the same.
    expect(post.forwardedHost).toBe(new URL(origin).host);
    const { throwIfPotentialCSRFAttack } = await import("@remix-run/server-runtime/dist/actions.js");
    expect(() =>
      throwIfPotentialCSRFAttack(new Headers({ origin, host: post.host!, "x-forwarded-host": post.forwardedHost! })),
    ).not.toThrow();
    // What the preview did before: the app's own host only, which Remix refuses.
    expect(() => throwIfPotentialCSRFAttack(new Headers({ origin, host: post.host! }))).toThrow(/does not match/);
  });

  it("opens the app in the language chosen in its menu, as Shopify passes the admin's language, and remembers it", async () => {
    const shell = await get("/?locale=fr");
    expect(await shell.text()).toContain('<option value="fr" selected>Français</option>');
    const cookie = shell.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(cookie).toContain("preview_locale=fr");
    const open = await get("/__preview/open?path=/app", { cookie });
    expect(new URL(open.headers.get("location")!, preview.url).searchParams.get("locale")).toBe("fr");
    expect(await (await get("/__preview/app-bridge.js", { cookie })).text()).toContain('"locale":"fr"');
    // A language the preview does not offer falls back to English.
    const unknown = await get("/__preview/open?path=/app&locale=xx");
    expect(new URL(unknown.headers.get("location")!, preview.url).searchParams.get("locale")).toBe("en");
  });

  it("shows the shop named in the URL, then keeps minting its tokens (cookie), and knows no other shop", async () => {
    const shell = await (await get("/?shop=rif-market.myshopify.com")).text();
    expect(shell).toContain('src="/__preview/open?shop=rif-market.myshopify.com&path=/app"');
    expect(shell).toContain('<option value="rif-market.myshopify.com" selected>');
    const open = await get("/__preview/open?shop=rif-market.myshopify.com&path=/app");
    expect(new URL(open.headers.get("location")!, preview.url).searchParams.get("shop")).toBe(
      "rif-market.myshopify.com",
    );
    const cookie = open.headers.get("set-cookie")!.split(";")[0];
    const destOf = async (headers: Record<string, string>) => {
      const { token } = (await (await get("/__preview/token", headers)).json()) as { token: string };
      return (JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()) as { dest: string }).dest;
    };
    expect(await destOf({ cookie })).toBe("https://rif-market.myshopify.com");
    expect(await destOf({})).toBe("https://atlas-beauty.myshopify.com");
    expect(await destOf({ cookie: "preview_shop=evil.myshopify.com" })).toBe("https://atlas-beauty.myshopify.com");
  });

  it("points the app's Shopify admin links at the stand-in, in pages and route data", () => {
    const link = "https://admin.shopify.com/store/atlas-beauty/orders/6180000001001";
    expect(rewriteHtml(`<a href="${link}">`, "http://127.0.0.1:4020")).toBe(
      '<a href="http://127.0.0.1:4020/store/atlas-beauty/orders/6180000001001">',
    );
    expect(rewriteHtml(`<a href="${link}">`)).toBe(`<a href="${link}">`);
  });

  it("uninstalls from its own page only: a form posted from another site is refused", async () => {
    const post = (origin?: string) =>
      fetch(new URL("/__preview/uninstall?shop=rif-market.myshopify.com", preview.url), {
        method: "POST",
        redirect: "manual",
        headers: origin ? { origin } : {},
      });
    expect((await post("https://attacker.example")).status).toBe(403);
    expect((await post()).status).toBe(403);
    expect(uninstalled).toEqual([]);
    const done = await post(new URL(preview.url).origin);
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/?shop=rif-market.myshopify.com&uninstalled=1");
    expect(uninstalled).toEqual(["rif-market.myshopify.com"]);
    // The page it lands on does not open the app (that would install it again) until asked.
    const after = await (await get("/?shop=rif-market.myshopify.com&uninstalled=1")).text();
    expect(after).not.toContain("<iframe");
    expect(after).toContain('<a href="/?shop=rif-market.myshopify.com">Open the app again</a>');
  });

  it("answers loopback callers only, by address and by Host header", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(preview.url);
      request(
        { host: url.hostname, port: url.port, path: "/__preview/token", headers: { host: "attacker.example:80" } },
        (res) => resolve(res.statusCode ?? 0),
      )
        .on("error", reject)
        .end();
    });
    expect(status).toBe(403);
    expect(isLoopbackAddress("127.0.0.1")).toBe(true);
    expect(isLoopbackAddress("::ffff:127.0.0.1")).toBe(true);
    expect(isLoopbackAddress("::1")).toBe(true);
    expect(isLoopbackAddress("192.168.1.20")).toBe(false);
    expect(isLoopbackAddress("::ffff:10.0.0.1")).toBe(false);
    expect(isLoopbackHostHeader("localhost:8081")).toBe(true);
    expect(isLoopbackHostHeader("[::1]:8081")).toBe(true);
    expect(isLoopbackHostHeader("127.0.0.1.nip.io:8081")).toBe(false);
  });
});
