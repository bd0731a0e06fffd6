/**
 * The platform's events address, through the production
 * server. The body limit comes first (whatever the token), then the time
 * window, then the signature; every refusal (unknown token, no secret,
 * uninstalled shop, bad signature, stale timestamp, replay) is the same answer;
 * a signed request is accepted once; a weak events secret is refused; new
 * tokens are 256-bit random, and an existing (cuid) token keeps working.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../../app/crypto/secret-box.server";
import { saveShopSettings } from "../../app/pages/settings.server";
import { ensurePreviewBuild, removePreviewBuild } from "../helpers/preview-server";
import { startAppServer, streamPost, type AppServer } from "./app-server";
import { ensureShop } from "../../app/models/shops.server";

const SHOP = "atlas-beauty.myshopify.com";
const NO_SECRET_SHOP = "no-secret.myshopify.com";
const GONE_SHOP = "uninstalled.myshopify.com";
const SECRET = "whsec_8d5c1f0b9a7e4c3d2b1a0f9e8d7c6b5a";

let buildDir: string;
let server: AppServer;
let token: string;

beforeAll(async () => {
  buildDir = await ensurePreviewBuild();
  server = await startAppServer(buildDir, { shops: [SHOP] });
  const box = createSecretBox(process.env.ENCRYPTION_KEY!);
  for (const shop of [SHOP, NO_SECRET_SHOP, GONE_SHOP]) await ensureShop(server.db, shop);
  await server.db.shop.update({
    where: { domain: SHOP },
    data: { eventsSecretCipher: box.seal(SECRET, { shop: SHOP, purpose: "events-secret" }) },
  });
  await server.db.shop.update({
    where: { domain: GONE_SHOP },
    data: {
      uninstalledAt: new Date(),
      eventsSecretCipher: box.seal(SECRET, { shop: GONE_SHOP, purpose: "events-secret" }),
    },
  });
  token = (await server.db.shop.findUniqueOrThrow({ where: { domain: SHOP } })).eventsToken;
}, 300_000);
afterAll(async () => {
  await server?.close();
  if (buildDir) removePreviewBuild(buildDir);
});

const nowSeconds = () => Math.floor(Date.now() / 1000);
let seq = 0;
function eventBody(ref = "CL-0001") {
  seq++;
  return JSON.stringify({
    event: "lead.confirmed",
    ref,
    account: "ACC-1",
    confirmation_status: "confirmed",
    shipping_status: "pending",
    n: seq,
  });
}

interface Signed {
  body: string;
  headers: Record<string, string>;
}
function signed(body: string, options: { secret?: string; timestamp?: number; eventId?: string } = {}): Signed {
  const ts = String(options.timestamp ?? nowSeconds());
  const signature = `sha256=${createHmac("sha256", options.secret ?? SECRET)
    .update(`${ts}.${body}`)
    .digest("hex")}`;
  return {
    body,
    headers: {
      "Content-Type": "application/json",
      "X-Timestamp": ts,
      "X-Signature": signature,
      ...(options.eventId ? { "X-Event-Id": options.eventId } : {}),
    },
  };
}

async function send(to: string, event: Signed): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.url}/webhooks/seller/${to}`, {
    method: "POST",
    headers: event.headers,
    body: event.body,
  });
  return { status: res.status, text: await res.text() };
}

const refreshJobs = () => server.db.job.count({ where: { kind: "refresh-lead", shop: SHOP } });

describe("the platform events address", () => {
  it("gives one identical answer to every refusal, and accepts a signed event once", async () => {
    const tokenOf = async (shop: string) =>
      (await server.db.shop.findUniqueOrThrow({ where: { domain: shop } })).eventsToken;
    const valid = signed(eventBody(), { eventId: "evt_0000000000000001" });
    const refusals = {
      unknownToken: await send("no-such-token", valid),
      noSecret: await send(await tokenOf(NO_SECRET_SHOP), valid),
      uninstalled: await send(await tokenOf(GONE_SHOP), valid),
      badSignature: await send(token, signed(eventBody(), { secret: "whsec_not_the_right_secret_at_all_0000" })),
      staleTimestamp: await send(token, signed(eventBody(), { timestamp: nowSeconds() - 3600 })),
      futureTimestamp: await send(token, signed(eventBody(), { timestamp: nowSeconds() + 3600 })),
      noSignature: await send(token, { body: eventBody(), headers: { "X-Timestamp": String(nowSeconds()) } }),
    };
    expect(await refreshJobs()).toBe(0);

    const accepted = await send(token, valid);
    expect(accepted.status).toBe(202);
    expect(await refreshJobs()).toBe(1);
    // The same signed request again (a replay inside the time window).
    const replay = await send(token, valid);

    const answers = new Set([...Object.values(refusals), replay].map((r) => `${r.status} ${r.text}`));
    expect([...answers]).toEqual(['401 {"error":"event refused"}']);
    // The server log keeps each cause.
    // The server's JSON log says why, where only the operator reads it.
    expect(server.output()).toMatch(/platform event refused: unknown or uninstalled events address/);
    expect(server.output()).toMatch(/platform event refused: .*replayed event/);
  });

  it("acknowledges a platform retry (same X-Event-Id, signed again) without queuing the work twice", async () => {
    const body = eventBody("CL-0002");
    expect((await send(token, signed(body, { eventId: "evt_retry_1", timestamp: nowSeconds() - 2 }))).status).toBe(202);
    const jobs = await server.db.job.findMany({ where: { kind: "refresh-lead", shop: SHOP } });
    // The refresh ran and finished; a retry of the same event must not queue it again.
    await server.db.job.deleteMany({ where: { id: { in: jobs.map((j) => j.id) } } });
    expect((await send(token, signed(body, { eventId: "evt_retry_1" }))).status).toBe(202);
    expect(await refreshJobs()).toBe(0);
  });

  it("enforces the 64 KiB limit first: 413 whatever the token, before the signature", async () => {
    for (const to of [token, "no-such-token"]) {
      const declared = await streamPost(server.url, `/webhooks/seller/${to}`, 200 * 1024);
      expect(["413", "ECONNRESET", "EPIPE"]).toContain(declared.outcome);
      const chunked = await streamPost(server.url, `/webhooks/seller/${to}`, 200 * 1024, { chunked: true });
      expect(["413", "ECONNRESET", "EPIPE"]).toContain(chunked.outcome);
    }
    // A signed event just over the limit is refused too: the limit is not the signature's to waive.
    const big = signed(JSON.stringify({ ref: "CL-3", pad: "x".repeat(70 * 1024) }));
    expect((await send(token, big)).status).toBe(413);
  });

  it("refuses a weak events secret and issues 256-bit random tokens; a legacy cuid token still works", async () => {
    const shop = "fresh-shop.myshopify.com";
    for (const weak of ["s", "short-secret", "a".repeat(64), "abababababababababababababababababab"]) {
      const result = await saveShopSettings(server.db, shop, { eventsSecret: weak });
      expect(result.ok, weak).toBe(false);
      if (!result.ok) expect(result.fieldErrors.eventsSecret).toEqual({ code: "min", min: 32 });
    }
    expect((await server.db.shop.findUniqueOrThrow({ where: { domain: shop } })).eventsSecretCipher).toBeNull();
    expect((await saveShopSettings(server.db, shop, { eventsSecret: SECRET })).ok).toBe(true);

    const tokens = await server.db.shop.findMany({
      where: { domain: { in: [shop, SHOP, NO_SECRET_SHOP] } },
      select: { eventsToken: true },
    });
    for (const { eventsToken } of tokens) expect(eventsToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(tokens[0].eventsToken, "base64url")).toHaveLength(32);

    // A shop created before this change keeps its cuid token, and the address keeps working.
    const legacy = "cm3legacytoken0000000000a";
    await server.db.shop.update({ where: { domain: SHOP }, data: { eventsToken: legacy } });
    try {
      expect((await send(legacy, signed(eventBody("CL-0004")))).status).toBe(202);
    } finally {
      await server.db.shop.update({ where: { domain: SHOP }, data: { eventsToken: token } });
    }
  });
});
