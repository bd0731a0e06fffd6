/**
 * The order side of the app on real parts, for the security suite: a fresh
 * database, installed shops (offline sessions, admin routes callable with
 * session tokens), the sandbox platform over loopback with the shop's key,
 * the pipeline's worker, and the webhook routes behind a real HTTP server on
 * 127.0.0.1 that answers them the way server.ts does in production (the
 * route's action, a thrown Response being the answer, anything else a 500).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ActionFunctionArgs } from "@remix-run/node";
import { startSandbox, sandboxControl } from "../../sandbox/index";
import { SHOP_A, startAdminApp, stopAdminApp, type AdminApp } from "../pages/helpers";
import { connectTestShop, testPipeline, type TestPipeline } from "../helpers/pipeline";
import { signedWebhookHeaders } from "../helpers/webhooks";

type Action = (args: ActionFunctionArgs) => Promise<unknown>;

export interface OrderWorld {
  app: AdminApp;
  shop: string;
  sandboxUrl: string;
  pipeline: TestPipeline;
  /** Base URL of the HTTP server in front of the webhook routes. */
  url: string;
  /** Posts a body (object or raw text) signed for `topic` to the HTTP server; the status and the server's own errors. */
  post(topic: string, body: unknown, options?: { webhookId?: string; timeoutMs?: number }): Promise<number>;
  /** Errors the server caught (a 500 would have been answered). */
  serverErrors: unknown[];
  close(): Promise<void>;
}

const WEBHOOK_ROUTES: Record<string, string> = {
  "orders/create": "../../app/routes/webhooks.orders.create",
  "orders/updated": "../../app/routes/webhooks.orders.updated",
  "orders/cancelled": "../../app/routes/webhooks.orders.cancelled",
};

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startOrderWorld(): Promise<OrderWorld> {
  const app = await startAdminApp();
  const sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
  const control = sandboxControl(sandbox.url);
  const keys = await control.reset();
  const key = keys.keys.find((k) => k.account === "ACC-1001")!;
  await connectTestShop(app.db.prisma, { shop: SHOP_A, apiKey: key.key, baseUrl: sandbox.url });
  const pipeline = testPipeline(app.db.prisma);

  const actions = new Map<string, Action>();
  for (const [topic, path] of Object.entries(WEBHOOK_ROUTES))
    actions.set(`/webhooks/${topic}`, ((await import(path)) as { action: Action }).action);
  const serverErrors: unknown[] = [];
  const server: Server = createServer(async (req, res) => {
    const action = actions.get((req.url ?? "").split("?", 1)[0]);
    if (!action || req.method !== "POST") return void res.writeHead(404).end();
    try {
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: "POST",
        headers,
        body: new Uint8Array(await readBody(req)) as unknown as BodyInit,
      });
      let response: unknown;
      try {
        response = await action({ request, params: {}, context: {} });
      } catch (thrown) {
        if (!(thrown instanceof Response)) throw thrown;
        response = thrown;
      }
      const answer = response instanceof Response ? response : new Response(null, { status: 204 });
      res.writeHead(answer.status).end(Buffer.from(await answer.arrayBuffer()));
    } catch (error) {
      serverErrors.push(error);
      res.writeHead(500).end("Internal Server Error");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    app,
    shop: SHOP_A,
    sandboxUrl: sandbox.url,
    pipeline,
    url,
    serverErrors,
    async post(topic, body, options = {}) {
      const raw = typeof body === "string" ? body : JSON.stringify(body);
      const headers = signedWebhookHeaders({ topic, shop: SHOP_A, body, webhookId: options.webhookId }, raw);
      const response = await fetch(`${url}/webhooks/${topic}`, {
        method: "POST",
        headers,
        body: raw,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      await response.arrayBuffer();
      return response.status;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sandbox.close();
      await stopAdminApp(app);
    },
  };
}
