/** Loopback port checks. */
import { createServer } from "node:net";

/** True when nothing listens on host:port (we could bind it). */
export function isPortFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

// Below Linux's ephemeral range (32768-60999): a port the kernel hands out for
// listen(0) is also a source port for the next outgoing connection, so with many
// loopback clients in flight it can be taken between our check and the child's
// listen (EADDRINUSE). Ports here are never given out on their own.
const FIRST = 20_000;
const SPAN = 12_000;

/** A port free right now, picked at random outside the range the kernel assigns by itself. */
export async function freePort(host = "127.0.0.1"): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = FIRST + Math.floor(Math.random() * SPAN);
    if (await isPortFree(port, host)) return port;
  }
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
