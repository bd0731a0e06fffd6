/** A real HTTP server on 127.0.0.1 with an ephemeral port, for fakes of what cannot run here. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackServer {
  url: string;
  requests: { method: string; path: string; body: string }[];
  close(): Promise<void>;
}

export type LoopbackHandler = (req: IncomingMessage, body: string, res: ServerResponse) => void | Promise<void>;

export async function startLoopbackServer(handler: LoopbackHandler): Promise<LoopbackServer> {
  const requests: LoopbackServer["requests"] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    requests.push({ method: req.method ?? "GET", path: req.url ?? "/", body });
    try {
      await handler(req, body, res);
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
