/**
 * The intake benchmark's floor: the least a verified webhook can cost here —
 * authenticate.webhook (HMAC) and one row inserted — on the same libraries,
 * database and process model as the app, without anything of ours around it.
 */
import { createServer } from "node:http";
import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { createPrismaClient } from "../../../../app/db/client";

const prisma = createPrismaClient(process.env.DATABASE_URL!);
const shopify = shopifyApp({
  apiKey: process.env.SHOPIFY_API_KEY!,
  apiSecretKey: process.env.SHOPIFY_API_SECRET!,
  appUrl: process.env.SHOPIFY_APP_URL!,
  apiVersion: ApiVersion.July26,
  sessionStorage: new PrismaSessionStorage(prisma),
  future: { unstable_newEmbeddedAuthStrategy: true, expiringOfflineAccessTokens: true },
});

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const request = new Request(`http://127.0.0.1${req.url}`, { method: "POST", headers, body: Buffer.concat(chunks) });
  try {
    const { webhookId, shop, topic } = await shopify.authenticate.webhook(request);
    await prisma.webhookDelivery.create({ data: { id: webhookId, shop, topic: String(topic) } });
    res.writeHead(200).end();
  } catch (error) {
    res.writeHead(error instanceof Response ? error.status : 500).end();
  }
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("floor ready"));
