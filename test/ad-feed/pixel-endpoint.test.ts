/**
 * POST /api/pixel/:token, the storefront pixel's endpoint, through the route:
 * open to any origin (CORS, a simple text/plain request), the shop named by the
 * token, a message checked and kept (a refusal never turned into consent by a
 * later message), nothing kept while the feed is off, bounded in size and rate.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";

type PixelRoute = typeof import("../../app/routes/api.pixel.$token");

const SHOP = "atlas-beauty.myshopify.com";
let db: TestDatabase;
let route: PixelRoute;
let token: string;

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  route = await import("../../app/routes/api.pixel.$token");
});
afterAll(() => db?.cleanup());
beforeEach(async () => {
  await db.prisma.adClick.deleteMany();
  await db.prisma.adFeed.deleteMany();
  token = (await db.prisma.adFeed.create({ data: { shop: SHOP, enabled: true } })).pixelToken;
});

const message = (orderId: string, marketing = true, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    v: 1,
    orderId,
    checkoutToken: `chk-${orderId}`,
    marketing,
    fbp: "fb.1.1700000000000.42",
    ttclid: "E.C.P.x",
    ...extra,
  });

const post = (body: string, to = token) =>
  route.action({
    request: new Request(`https://app.example.com/api/pixel/${to}`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: "https://atlas-beauty.ma" },
      body,
    }),
    params: { token: to },
    context: {},
  });

describe("the pixel endpoint", () => {
  it("GIVEN a checkout's message WHEN posted THEN kept for the token's shop, answered 204 to any origin", async () => {
    const response = await post(message("5550001"));
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(
      await db.prisma.adClick.findUniqueOrThrow({ where: { shop_orderId: { shop: SHOP, orderId: "5550001" } } }),
    ).toMatchObject({
      marketing: true,
      checkoutToken: "chk-5550001",
      fbp: "fb.1.1700000000000.42",
      ttclid: "E.C.P.x",
    });
  });

  it("GIVEN the CORS preflight WHEN asked THEN 204 with what may be sent", async () => {
    const response = await route.loader({
      request: new Request(`https://app.example.com/api/pixel/${token}`, { method: "OPTIONS" }),
      params: { token },
      context: {},
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
  });

  it("GIVEN a refusal WHEN a consent for the same order follows THEN the refusal stands, without click ids", async () => {
    await post(message("5550002", false));
    await post(message("5550002", true));
    expect(await db.prisma.adClick.findFirstOrThrow({ where: { orderId: "5550002" } })).toMatchObject({
      marketing: false,
      fbp: null,
      ttclid: null,
    });
  });

  it("GIVEN an unknown token, a bad message or too many bytes WHEN posted THEN 404, 400 with the reason, 413", async () => {
    expect((await post(message("1"), "cm0000000000000000000000x")).status).toBe(404);
    expect((await post(message("1"), "../../etc")).status).toBe(404);
    const bad = await post(message("1", true, { fbp: "<img>" }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "fbp: not an _fbp value" });
    expect((await post("x".repeat(9000))).status).toBe(413);
    expect(await db.prisma.adClick.count()).toBe(0);
  });

  it("GIVEN the feed off WHEN a message comes THEN nothing is kept", async () => {
    await db.prisma.adFeed.update({ where: { shop: SHOP }, data: { enabled: false } });
    expect((await post(message("5550003"))).status).toBe(204);
    expect(await db.prisma.adClick.count()).toBe(0);
  });

  it("GIVEN one order's message repeated WHEN posted a burst THEN refused with 429 past a few", async () => {
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await post(message("5550004"))).status);
    expect(statuses.slice(0, 5)).toEqual([204, 204, 204, 204, 204]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
  });
});
