import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useTestDatabaseForApp } from "../helpers/app";
import { adminRequest, storeOfflineSession } from "../helpers/admin";
import type { TestDatabase } from "../helpers/db";

let db: TestDatabase;
const networkCalls: string[] = [];

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  // Any outbound call (token exchange, Admin API) would be recorded and fail.
  const refuse = async (input: RequestInfo | URL) => {
    networkCalls.push(String(input instanceof Request ? input.url : input));
    throw new Error("network is not allowed in this test");
  };
  const { setAbstractFetchFunc } = await import("@shopify/shopify-api/runtime");
  await import("../../app/shopify.server");
  setAbstractFetchFunc(refuse as typeof fetch);
  vi.stubGlobal("fetch", refuse);
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await db.cleanup();
});

describe("embedded admin authentication", () => {
  it("authenticates the home loader from a stored offline session with no network call", async () => {
    // GIVEN an installed shop WHEN the embedded admin opens /app with a session token
    const { sessionStorage } = await import("../../app/shopify.server");
    await storeOfflineSession(sessionStorage, "atlas-beauty.myshopify.com");
    const { loader } = await import("../../app/routes/app._index");
    const result = await loader({
      request: await adminRequest("atlas-beauty.myshopify.com", "/app"),
      params: {},
      context: {},
    });
    // THEN the loader sees that shop, and nothing left the machine
    expect(result).toMatchObject({ shop: "atlas-beauty.myshopify.com" });
    expect(networkCalls).toEqual([]);
  });

  it("accepts a later data request carrying the session token as a Bearer header", async () => {
    const { loader } = await import("../../app/routes/app._index");
    const request = await adminRequest("atlas-beauty.myshopify.com", "/app", { as: "fetch" });
    expect(await loader({ request, params: {}, context: {} })).toMatchObject({ shop: "atlas-beauty.myshopify.com" });
  });

  it("rejects a request without a session token", async () => {
    const { loader } = await import("../../app/routes/app._index");
    const request = new Request(`${process.env.SHOPIFY_APP_URL}/app`, {
      headers: { Authorization: "Bearer not-a-jwt", "User-Agent": "Mozilla/5.0 Chrome/156.0" },
    });
    const outcome = await loader({ request, params: {}, context: {} }).catch((thrown: unknown) => thrown);
    expect(outcome).toBeInstanceOf(Response);
    expect((outcome as Response).status).toBe(401);
  });
});
