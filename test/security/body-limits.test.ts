/**
 * Every route that reads a body enforces its limit while
 * reading, before any signature check, on every spelling of its path. Through
 * the real production server: 300 MiB bodies, declared or chunked, to the
 * webhook route and its variants, the events address, an admin route and an
 * unknown path. Each is refused early (413, or the connection closed after it),
 * the server's peak RSS (VmHWM) stays far below what buffering would need, and
 * the server keeps answering.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bodyLimitFor,
  DEFAULT_BODY_LIMIT,
  readTextWithin,
  SELLER_EVENT_BODY_LIMIT,
  WEBHOOK_BODY_LIMIT,
} from "../../app/http/body-limit.server";
import { ensurePreviewBuild, removePreviewBuild } from "../helpers/preview-server";
import { signedWebhookHeaders } from "../helpers/webhooks";
import { memoryMiB, startAppServer, streamPost, type AppServer } from "./app-server";

const MiB = 1024 * 1024;
const HUGE = 300 * MiB;
// The outcomes that prove an early refusal: the answer, or the connection closed right after it.
const REFUSED = ["413", "ECONNRESET", "EPIPE"];

let buildDir: string;
let server: AppServer;

beforeAll(async () => {
  buildDir = await ensurePreviewBuild();
  server = await startAppServer(buildDir);
}, 300_000);
afterAll(async () => {
  await server?.close();
  if (buildDir) removePreviewBuild(buildDir);
});

const WEBHOOK_VARIANTS = [
  "/webhooks/orders/create",
  "/webhooks/orders/create/",
  "/WEBHOOKS/Orders/Create",
  "//webhooks//orders/create",
  "/webhooks/orders/create?x=1",
  "/webhooks/%6frders/create",
  "/webhooks/customers/redact/",
];

describe("request body limits, through the production server", () => {
  it("refuses 300 MiB to every webhook path variant, chunked or declared, with bounded memory", async () => {
    const before = memoryMiB(server.pid);
    for (const path of WEBHOOK_VARIANTS) {
      for (const chunked of [true, false]) {
        const result = await streamPost(server.url, path, HUGE, { chunked });
        expect(REFUSED, `${path} (${chunked ? "chunked" : "Content-Length"}) answered ${result.outcome}`).toContain(
          result.outcome,
        );
        // Refused at the limit (4 MiB for webhooks), not after reading the whole body.
        expect(result.sent, path).toBeLessThan(64 * MiB);
      }
    }
    const after = memoryMiB(server.pid);
    console.info(
      `[body-limits] ${WEBHOOK_VARIANTS.length * 2} x 300 MiB: server peak RSS ${before.peak.toFixed(0)} -> ${after.peak.toFixed(0)} MiB`,
    );
    // Buffering one body alone would add 300 MiB; the limit allows 4 MiB per request.
    expect(after.peak - before.peak, `peak RSS ${before.peak.toFixed(0)} -> ${after.peak.toFixed(0)} MiB`).toBeLessThan(
      120,
    );
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 180_000);

  it("answers 413 before any signature check: an unsigned body just over the limit is not a 401", async () => {
    const result = await streamPost(server.url, "/webhooks/orders/create/", 10 * MiB + 1, { chunked: true });
    expect(REFUSED).toContain(result.outcome);
    const declared = await streamPost(server.url, "/Webhooks/orders/updated", 10 * MiB + 1);
    expect(REFUSED).toContain(declared.outcome);
    // Under the limit the same unsigned body reaches the HMAC check.
    const headers = signedWebhookHeaders(
      { topic: "orders/create", shop: "a.myshopify.com", body: null, signWith: "not-the-secret" },
      "{}",
    );
    const small = await fetch(`${server.url}/webhooks/orders/create/`, { method: "POST", headers, body: "{}" });
    expect(small.status).toBe(401);
  });

  it("limits the events address to 64 KiB and admin routes to 5 MiB, and never reads bodies for unknown paths", async () => {
    const before = memoryMiB(server.pid);
    const events = await streamPost(server.url, "/webhooks/seller/some-token", 64 * 1024 + 1, { chunked: true });
    expect(REFUSED).toContain(events.outcome);
    for (const path of ["/app/settings", "/app/mappings?index", "/api/orders/1/send"]) {
      for (const chunked of [true, false]) {
        const result = await streamPost(server.url, path, HUGE, { chunked });
        // An admin route refuses an unauthenticated request before reading; either way nothing past the limit is read.
        const status = Number(result.outcome);
        expect(REFUSED.includes(result.outcome) || (status >= 300 && status < 500), `${path}: ${result.outcome}`).toBe(
          true,
        );
        expect(result.sent, path).toBeLessThan(64 * MiB);
      }
    }
    const unknown = await streamPost(server.url, "/no/such/route", HUGE, { chunked: true });
    expect(["404", "405", ...REFUSED]).toContain(unknown.outcome);
    const declaredUnknown = await streamPost(server.url, "/no/such/route", HUGE);
    expect(REFUSED).toContain(declaredUnknown.outcome);
    const after = memoryMiB(server.pid);
    expect(after.peak - before.peak, `peak RSS ${before.peak.toFixed(0)} -> ${after.peak.toFixed(0)} MiB`).toBeLessThan(
      120,
    );
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 180_000);
});

describe("the limit of a path and the reading of a body", () => {
  it("gives every spelling of a route the same limit", () => {
    for (const path of WEBHOOK_VARIANTS) expect(bodyLimitFor(path), path).toBe(WEBHOOK_BODY_LIMIT);
    for (const path of [
      "/webhooks/seller/t",
      "/Webhooks//SELLER/t/",
      "/webhooks/%73eller/t?x=1",
      "/webhooks\\seller/t",
    ]) {
      expect(bodyLimitFor(path), path).toBe(SELLER_EVENT_BODY_LIMIT);
    }
    expect(bodyLimitFor("/app/settings")).toBe(DEFAULT_BODY_LIMIT);
  });

  it("stops reading at the limit: a body that never ends is refused after limit + one chunk", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1024;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const request = new Request("http://x/webhooks/seller/t", {
      method: "POST",
      body: endless,
      duplex: "half",
    } as RequestInit);
    const thrown = await readTextWithin(request, 10 * 1024).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(413);
    expect(pulled).toBeLessThan(64 * 1024);
    const declared = new Request("http://x/", {
      method: "POST",
      body: "x".repeat(20),
      headers: { "Content-Length": "999999" },
    });
    expect(((await readTextWithin(declared, 100).catch((e: unknown) => e)) as Response).status).toBe(413);
    expect(await readTextWithin(new Request("http://x/", { method: "POST", body: "héllo" }), 100)).toBe("héllo");
  });
});
