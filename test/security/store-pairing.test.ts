/**
 * Sharing delivery records between a merchant's stores rested on a claim: two
 * stores shared when both opted in and both held the same seller account id,
 * which is what GET /v1/me answered at the base URL the merchant typed. A store
 * pointing its base URL at its own server could claim any account: it read
 * another merchant's customer records through the Customer card, and outcomes
 * its own fake platform made up put the other merchant's orders on hold.
 *
 * Now stores share only once paired (one store's staff creates a one-time code,
 * the other's enters it), and only while both opted in and both are connected to
 * the same account at the same platform address. Through the Settings page's
 * loader and actions, the sandbox platform and a fake one on loopback, the
 * pipeline, and a real database.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, sandboxControl, type RunningSandbox } from "../../sandbox/index";
import { load, submit, startAdminApp, stopAdminApp, type AdminApp } from "../pages/helpers";
import { testPipeline } from "../helpers/pipeline";
import { webhookOrder } from "../helpers/orders";

const ATLAS = "atlas-beauty.myshopify.com";
/** The same merchant's second store, with its own key to the same seller account. */
const SOUK = "atlas-souk.myshopify.com";
/** Another merchant's store, "verified" at its own server, which claims Atlas's account. */
const MALLORY = "mallory-store.myshopify.com";
const KNOWN_PHONE = "0661234567";
const MADE_UP_PHONE = "0677001122";

let app: AdminApp;
let sandbox: RunningSandbox;
let fakePlatform: Server;
let fakeUrl: string;
let settings: typeof import("../../app/routes/app.settings");
let activity: typeof import("../../app/routes/app.activity");
const keys: Record<string, string> = {};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
  app = await startAdminApp({ SELLER_API_BASE_URL: sandbox.url }, [ATLAS, SOUK, MALLORY]);
  settings = await import("../../app/routes/app.settings");
  activity = await import("../../app/routes/app.activity");
  const control = sandboxControl(sandbox.url);
  const { keys: seeded } = await control.reset();
  keys[ATLAS] = seeded.find((k) => k.account === "ACC-1001")!.key;
  keys[SOUK] = (await control.createKey({ account: "ACC-1001", name: "Shopify store atlas-souk", store: SOUK })).key;

  // What the platform answers Atlas's key, as anyone can write it: the fake platform answers it to any key.
  const me = await fetch(`${sandbox.url}/v1/me`, { headers: { Authorization: `Bearer ${keys[ATLAS]}` } });
  const headers = Object.fromEntries(
    [...me.headers].filter(([name]) => !["content-length", "date", "connection", "keep-alive"].includes(name)),
  );
  const body = await me.text();
  fakePlatform = createServer((req, res) => {
    if (req.url?.endsWith("/v1/me")) return void res.writeHead(200, headers).end(body);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => fakePlatform.listen(0, "127.0.0.1", resolve));
  fakeUrl = `http://127.0.0.1:${(fakePlatform.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => fakePlatform?.close(resolve));
  await sandbox?.close();
  await stopAdminApp(app);
});

const settingsAction = (shop: string, fields: Record<string, string>) =>
  submit(settings.action, shop, "/app/settings", fields);
const settingsPage = (shop: string) => load(settings.loader, shop, "/app/settings");
const sharingLog = async (shop: string) => (await load(activity.loader, shop, "/app/activity")).sharingLog;

async function verifyAndShare(shop: string, apiKey: string, baseUrl: string, holdFailures?: number) {
  expect(await settingsAction(shop, { intent: "save", apiKey, baseUrl })).toMatchObject({ ok: true });
  const hold: Record<string, string> = holdFailures
    ? { "customerHold.enabled": "true", "customerHold.failures": String(holdFailures), "customerHold.days": "90" }
    : {};
  expect(await settingsAction(shop, { intent: "save", shareCustomerRecords: "true", ...hold })).toMatchObject({
    ok: true,
  });
}

/** A store's own record of a phone: outcomes counted in the last days. */
async function record(shop: string, phoneKey: string, outcomes: ("refused" | "returned" | "cancelled")[]) {
  const at = new Date(Date.now() - 5 * 86_400_000);
  for (const [i, outcome] of outcomes.entries()) {
    await app.db.prisma.customerLead.create({
      data: {
        linkId: `${shop}-${phoneKey}-${i}`,
        shop,
        phoneKey,
        orderName: `#R${i}`,
        outcome,
        outcomeAt: at,
        orderedAt: at,
      },
    });
  }
  const count = (o: string) => outcomes.filter((x) => x === o).length;
  await app.db.prisma.customerRecord.create({
    data: {
      shop,
      phoneKey,
      orders: outcomes.length,
      refused: count("refused"),
      returned: count("returned"),
      cancelled: count("cancelled"),
      lastOutcome: outcomes.at(-1),
      lastOutcomeAt: at,
    },
  });
}

async function cardOf(shop: string, phoneKey: string) {
  const { loadCustomerCard } = await import("../../app/customers/card.server");
  return loadCustomerCard(app.db.prisma, shop, phoneKey);
}

async function placeOrder(shop: string, id: number, phone: string) {
  const { intakeOrderCreated } = await import("../../app/sync/order-intake.server");
  await app.db.prisma.$transaction((tx) => intakeOrderCreated(tx, shop, webhookOrder({ id, phone })));
  await testPipeline(app.db.prisma).drain();
  return app.db.prisma.orderLink.findUniqueOrThrow({ where: { shop_orderId: { shop, orderId: String(id) } } });
}

describe("a store verified at its own loopback platform, claiming another merchant's account", () => {
  beforeAll(async () => {
    // GIVEN Atlas, connected to the real platform, sharing, with the hold rule on at 2 failures
    await verifyAndShare(ATLAS, keys[ATLAS], "", 2);
    // AND Mallory, "verified" at its own server, which answered Atlas's account, sharing too
    await verifyAndShare(MALLORY, "cod_mallory_made_up_key_0000000000000000000000", fakeUrl);
    const [atlas, mallory] = await Promise.all([
      app.db.prisma.shop.findUniqueOrThrow({ where: { domain: ATLAS } }),
      app.db.prisma.shop.findUniqueOrThrow({ where: { domain: MALLORY } }),
    ]);
    expect(mallory.sellerAccount).toBe(atlas.sellerAccount);
    // AND Atlas's record of a customer, and outcomes Mallory's own platform made up for another phone
    await record(ATLAS, KNOWN_PHONE, ["refused", "returned", "cancelled"]);
    await record(MALLORY, MADE_UP_PHONE, ["cancelled", "cancelled"]);
  });

  it("cannot read Atlas's record through its Customer card", async () => {
    expect(await cardOf(MALLORY, KNOWN_PHONE)).toMatchObject({ orders: 0, risk: "new", shared: null });
  });

  it("cannot put Atlas's orders on hold with outcomes it made up", async () => {
    const link = await placeOrder(ATLAS, 9_300_000_000_001, MADE_UP_PHONE);
    expect(link.state).toBe("created");
    expect((await cardOf(ATLAS, MADE_UP_PHONE))?.shared).toBeNull();
  });

  it("cannot pair with Atlas, even with a code Atlas's staff enters: the platform addresses differ", async () => {
    const created = await settingsAction(MALLORY, { intent: "createPairingCode" });
    expect(created).toMatchObject({
      intent: "createPairingCode",
      code: expect.stringMatching(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/),
    });
    const code = created && "code" in created ? created.code : "";
    expect(await settingsAction(ATLAS, { intent: "redeemPairingCode", code })).toMatchObject({
      ok: false,
      error: "other_platform",
    });
    // Used up by that attempt, and refused on both stores' logs.
    expect(await settingsAction(ATLAS, { intent: "redeemPairingCode", code })).toMatchObject({
      ok: false,
      error: "invalid_code",
    });
    expect((await settingsPage(ATLAS)).pairing.peers).toEqual([]);
    expect((await sharingLog(ATLAS)).map((e) => [e.kind, e.peer, e.byHere])).toContainEqual([
      "pairing.refused",
      MALLORY,
      true,
    ]);
    expect((await sharingLog(MALLORY)).map((e) => [e.kind, e.peer, e.byHere])).toContainEqual([
      "pairing.refused",
      ATLAS,
      false,
    ]);
    expect(await cardOf(MALLORY, KNOWN_PHONE)).toMatchObject({ shared: null });
  });
});

describe("the merchant's own two stores", () => {
  beforeAll(async () => {
    await verifyAndShare(SOUK, keys[SOUK], "");
  });

  it("share nothing until they pair, whatever both opted into", async () => {
    expect(await cardOf(SOUK, KNOWN_PHONE)).toMatchObject({ shared: null });
  });

  it("pair with a one-time code kept only as its hash, then share both ways, each listing the other", async () => {
    const created = await settingsAction(ATLAS, { intent: "createPairingCode" });
    const code = created && "code" in created ? created.code : "";
    const stored = await app.db.prisma.storePairingCode.findUniqueOrThrow({ where: { shop: ATLAS } });
    expect(stored.codeHash).not.toContain(code.replace(/-/g, ""));
    expect(stored.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    expect((await settingsPage(ATLAS)).pairing.codeExpiresAt).toBe(stored.expiresAt.toISOString());
    // Its own code is not for itself.
    expect(await settingsAction(ATLAS, { intent: "redeemPairingCode", code })).toMatchObject({
      ok: false,
      error: "own_code",
    });
    // Typed as a person types it: lower case, spaces for dashes.
    expect(
      await settingsAction(SOUK, { intent: "redeemPairingCode", code: code.toLowerCase().replace(/-/g, " ") }),
    ).toMatchObject({ ok: true, peer: ATLAS, already: false });
    expect(await app.db.prisma.storePairingCode.count({ where: { shop: ATLAS } })).toBe(0);

    expect((await settingsPage(ATLAS)).pairing.peers).toEqual([
      expect.objectContaining({ shop: SOUK, codeFromHere: true, status: "sharing" }),
    ]);
    expect((await settingsPage(SOUK)).pairing.peers).toEqual([
      expect.objectContaining({ shop: ATLAS, codeFromHere: false, status: "sharing" }),
    ]);
    expect(await cardOf(SOUK, KNOWN_PHONE)).toMatchObject({
      risk: "high",
      shared: { stores: 1, orders: 3, counts: { refused: 1, returned: 1, cancelled: 1 } },
    });
    // The code was good once.
    expect(await settingsAction(MALLORY, { intent: "redeemPairingCode", code })).toMatchObject({
      ok: false,
      error: "invalid_code",
    });
  });

  it("refuses an expired code", async () => {
    const created = await settingsAction(SOUK, { intent: "createPairingCode" });
    await app.db.prisma.storePairingCode.updateMany({
      where: { shop: SOUK },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    expect(
      await settingsAction(ATLAS, {
        intent: "redeemPairingCode",
        code: created && "code" in created ? created.code : "",
      }),
    ).toMatchObject({ ok: false, error: "invalid_code" });
  });

  it("stop sharing when one re-verifies its key at another platform address, and again when either ends the pairing", async () => {
    expect(
      await settingsAction(SOUK, { intent: "save", apiKey: keys[SOUK], baseUrl: `${sandbox.url}/` }),
    ).toMatchObject({ ok: true });
    // The same address with a trailing slash: the same platform.
    expect((await settingsPage(ATLAS)).pairing.peers[0].status).toBe("sharing");
    expect(
      await settingsAction(SOUK, {
        intent: "save",
        apiKey: "cod_mallory_made_up_key_0000000000000000000000",
        baseUrl: fakeUrl,
      }),
    ).toMatchObject({ ok: true });
    expect((await settingsPage(ATLAS)).pairing.peers[0].status).toBe("other_platform");
    expect(await cardOf(SOUK, KNOWN_PHONE)).toMatchObject({ shared: null });
    expect(await settingsAction(SOUK, { intent: "save", apiKey: keys[SOUK], baseUrl: "" })).toMatchObject({ ok: true });
    expect((await settingsPage(ATLAS)).pairing.peers[0].status).toBe("sharing");

    expect(await settingsAction(SOUK, { intent: "endPairing", peer: ATLAS })).toMatchObject({ ok: true, peer: ATLAS });
    expect((await settingsPage(ATLAS)).pairing.peers).toEqual([]);
    expect(await cardOf(SOUK, KNOWN_PHONE)).toMatchObject({ shared: null });
    expect(await settingsAction(ATLAS, { intent: "endPairing", peer: SOUK })).toMatchObject({ ok: false });

    // Both logs: joined, then ended from the Souk side.
    const kinds = async (shop: string) =>
      (await sharingLog(shop)).filter((e) => e.peer === (shop === ATLAS ? SOUK : ATLAS)).map((e) => [e.kind, e.byHere]);
    expect(await kinds(ATLAS)).toEqual([
      ["pairing.ended", false],
      ["pairing.joined", false],
    ]);
    expect(await kinds(SOUK)).toEqual([
      ["pairing.ended", true],
      ["pairing.joined", true],
    ]);
  });

  it("cannot end a pairing of two other stores", async () => {
    const created = await settingsAction(ATLAS, { intent: "createPairingCode" });
    await settingsAction(SOUK, { intent: "redeemPairingCode", code: created && "code" in created ? created.code : "" });
    expect(await settingsAction(MALLORY, { intent: "endPairing", peer: ATLAS })).toMatchObject({ ok: false });
    expect((await settingsPage(ATLAS)).pairing.peers.map((p) => p.shop)).toEqual([SOUK]);
  });
});
