/**
 * Through the production server: a malformed Host
 * header is a 400 without a stack trace (it was a 500), and a signed webhook
 * nested 200,000 deep is refused with a 400 and its reason logged, on every
 * retry, without a stack overflow; a real order still goes through.
 */
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { signedWebhookHeaders } from "../helpers/webhooks";
import { webhookOrder } from "../helpers/orders";
import { useAppServer } from "./app-server";

const SHOP = "atlas-beauty.myshopify.com";

const server = useAppServer({ shops: [SHOP] });

/** Sends raw HTTP/1.1 (fetch would refuse to send a malformed Host) and returns status line and body. */
function rawRequest(head: string, body = ""): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server().port, "127.0.0.1");
    let data = "";
    socket.setEncoding("utf8");
    socket.on("data", (d) => (data += d));
    socket.on("error", reject);
    socket.on("close", () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), text: data }));
    // Not end(): a half-closed socket may be dropped before a slower route answers. The server closes it (Connection: close).
    socket.write(`${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}

describe("malformed requests", () => {
  it("answers 400 to a malformed Host header on every kind of route, with no stack trace", async () => {
    const hosts = [
      "exa mple.com",
      "[",
      "a/b",
      "x@evil.example",
      "example.com:99999",
      "example.com:abc",
      "",
      "ex%ample.com",
      "a..b",
    ];
    for (const host of hosts) {
      for (const [method, path] of [
        ["POST", "/webhooks/orders/create"],
        ["GET", "/healthz"],
        ["GET", "/app"],
        ["POST", "/webhooks/seller/x"],
      ]) {
        const answer = await rawRequest(`${method} ${path} HTTP/1.1\r\nHost: ${host}`, method === "POST" ? "{}" : "");
        expect(answer.status, `${method} ${path} with Host "${host}"`).toBe(400);
        expect(answer.text).not.toMatch(/\bat \S+ \(|TypeError|Invalid URL/);
      }
    }
    // A well-formed Host still works, with or without a port.
    expect((await rawRequest("GET /healthz HTTP/1.1\r\nHost: app.example.com")).status).toBe(200);
    expect((await rawRequest(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${server().port}`)).status).toBe(200);
    expect((await rawRequest("GET /healthz HTTP/1.1\r\nHost: [::1]:3000")).status).toBe(200);
    expect(server().output()).not.toMatch(/Invalid URL|TypeError/);
  });

  it("refuses a signed webhook nested 200,000 deep with a 400 and a logged reason, on every retry, and keeps taking real orders", async () => {
    const deep = `{"id":4400000000001,"note_attributes":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
    for (const topic of ["orders/create", "orders/updated"]) {
      for (let attempt = 0; attempt < 2; attempt++) {
        const headers = signedWebhookHeaders(
          { topic, shop: SHOP, body: null, secret: server().apiSecret, webhookId: `wh-deep-${topic}` },
          deep,
        );
        const response = await fetch(`${server().url}/webhooks/${topic}`, { method: "POST", headers, body: deep });
        expect(response.status, `${topic} attempt ${attempt + 1}`).toBe(400);
        expect(await response.text()).toMatch(/nests deeper than 64 levels/);
      }
    }
    expect(server().output()).toMatch(/webhook refused: the webhook body nests deeper than 64 levels/);
    expect(server().output()).not.toMatch(/RangeError|Maximum call stack/);
    expect(await server().db.orderLink.count({ where: { orderId: "4400000000001" } })).toBe(0);

    // A real order, with its ordinary nesting, is stored.
    const order = JSON.stringify(webhookOrder({ id: 4_400_000_000_002 }));
    const headers = signedWebhookHeaders(
      { topic: "orders/create", shop: SHOP, body: null, secret: server().apiSecret },
      order,
    );
    expect(
      (await fetch(`${server().url}/webhooks/orders/create`, { method: "POST", headers, body: order })).status,
    ).toBe(200);
    expect(await server().db.orderLink.count({ where: { orderId: "4400000000002" } })).toBe(1);
    expect((await fetch(`${server().url}/healthz`)).status).toBe(200);
  });
});
