/**
 * The order page's action extension runs on
 * https://extensions.shopifycdn.com and calls the app cross-origin with a
 * session token, so a browser first sends a CORS preflight (OPTIONS, no
 * credentials). Through the production server, exactly as a browser would:
 * the preflight, then the POST with `Authorization: Bearer <session token>`.
 */
import { describe, expect, it } from "vitest";
import { useAppServer } from "./app-server";

const SHOP = "atlas-beauty.myshopify.com";
const EXTENSION_ORIGIN = "https://extensions.shopifycdn.com";
const BROWSER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

const server = useAppServer({ shops: [SHOP] });

async function seedHeldOrder(orderId: string) {
  await server().db.shop.upsert({ where: { domain: SHOP }, create: { domain: SHOP }, update: {} });
  return server().db.orderLink.create({
    data: {
      shop: SHOP,
      orderId,
      orderName: "#1001",
      payload: JSON.stringify({ id: Number(orderId), name: "#1001" }),
      externalRef: `shopify:${orderId}`,
      state: "held",
      reason: "Automatic sending is off",
    },
  });
}

/** What Chrome sends before a cross-origin POST carrying Authorization and Content-Type. */
const preflight = (path: string, method: string) =>
  fetch(`${server().url}${path}`, {
    method: "OPTIONS",
    headers: {
      Origin: EXTENSION_ORIGIN,
      "Access-Control-Request-Method": method,
      "Access-Control-Request-Headers": "authorization,content-type",
      "User-Agent": BROWSER_USER_AGENT,
      Accept: "*/*",
      "Sec-Fetch-Mode": "cors",
      "Sec-Fetch-Site": "cross-site",
      "Sec-Fetch-Dest": "empty",
    },
  });

/** Whether a browser would let the actual request through after this preflight answer. */
function browserAllows(response: Response, method: string, headers: string[]): boolean {
  if (response.status < 200 || response.status > 299) return false;
  const origin = response.headers.get("Access-Control-Allow-Origin");
  if (origin !== "*" && origin !== EXTENSION_ORIGIN) return false;
  const safelisted = ["GET", "HEAD", "POST"].includes(method);
  const methods = (response.headers.get("Access-Control-Allow-Methods") ?? "")
    .split(",")
    .map((m) => m.trim().toUpperCase());
  if (!safelisted && !methods.includes(method) && !methods.includes("*")) return false;
  const allowed = (response.headers.get("Access-Control-Allow-Headers") ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase());
  return headers.every((h) => allowed.includes(h) || allowed.includes("*"));
}

describe("the order-page extension's calls, cross-origin through real HTTP", () => {
  it("answers the Send preflight, then sends the order on the POST with a session token", async () => {
    const link = await seedHeldOrder("5600000000001");
    const path = `/api/orders/${link.orderId}/send`;

    // WHEN the browser preflights the POST
    const answer = await preflight(path, "POST");
    // THEN it is answered (it was 400: the route had no loader, and Remix hands OPTIONS to the loader)
    expect(answer.status).toBe(204);
    expect(browserAllows(answer, "POST", ["authorization", "content-type"])).toBe(true);

    // WHEN the browser then sends the POST with the session token
    const response = await fetch(`${server().url}${path}`, {
      method: "POST",
      headers: {
        Origin: EXTENSION_ORIGIN,
        Authorization: `Bearer ${await server().mintToken(SHOP)}`,
        "Content-Type": "application/json",
        "User-Agent": BROWSER_USER_AGENT,
      },
    });
    // THEN the order is sent and the answer is readable cross-origin
    expect(response.status).toBe(200);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(await response.json()).toMatchObject({ state: "received" });
    expect(await server().db.job.count({ where: { key: `post-lead:${SHOP}:${link.orderId}` } })).toBe(1);
  });

  it("answers the status route's preflight, and its GET with a session token", async () => {
    const link = await seedHeldOrder("5600000000002");
    const path = `/api/orders/${link.orderId}/status`;
    const answer = await preflight(path, "GET");
    expect(answer.status).toBe(204);
    expect(browserAllows(answer, "GET", ["authorization", "content-type"])).toBe(true);
    const response = await fetch(`${server().url}${path}`, {
      headers: {
        Origin: EXTENSION_ORIGIN,
        Authorization: `Bearer ${await server().mintToken(SHOP)}`,
        "User-Agent": BROWSER_USER_AGENT,
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
  });

  it("still refuses the POST without a valid session token, and a GET of the send route", async () => {
    const link = await seedHeldOrder("5600000000003");
    const path = `/api/orders/${link.orderId}/send`;
    const unsigned = await fetch(`${server().url}${path}`, {
      method: "POST",
      headers: { Origin: EXTENSION_ORIGIN, Authorization: "Bearer not-a-token", "User-Agent": BROWSER_USER_AGENT },
    });
    expect(unsigned.status).toBe(401);
    const get = await fetch(`${server().url}${path}`, {
      headers: {
        Origin: EXTENSION_ORIGIN,
        Authorization: `Bearer ${await server().mintToken(SHOP)}`,
        "User-Agent": BROWSER_USER_AGENT,
      },
    });
    expect(get.status).toBe(405);
    expect((await server().db.orderLink.findUniqueOrThrow({ where: { id: link.id } })).state).toBe("held");
  });
});
