/**
 * `npm run bench -- sandbox [--duration 3] [--concurrency 32] [--in-process]`
 *
 * Requests per second of the sandbox on loopback for GET /v1/me and POST /v1/leads.
 * By default the sandbox runs in its own process (as `npm run sandbox` would), so the
 * load generator does not steal its event loop; --in-process measures both in one.
 * The rate limit is lifted for the run: this measures the server, not the limiter.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startSandbox } from "../../../sandbox/index";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "3" },
    concurrency: { type: "string", default: "32" },
    "in-process": { type: "boolean", default: false },
  },
});
const durationMs = Number(values.duration) * 1000;
const concurrency = Number(values.concurrency);
const LIFTED_RATE_LIMIT = 1_000_000_000;

interface Target {
  url: string;
  key: string;
  stop(): Promise<void>;
}

async function startOutOfProcess(): Promise<Target> {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", join(root, "sandbox", "cli.ts"), "--port", "0", "--rate-limit", String(LIFTED_RATE_LIMIT)],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    let buffer = "";
    child.once("exit", (code) => reject(new Error(`sandbox exited with ${code}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      const parts = buffer.split("\n");
      buffer = parts.pop() ?? "";
      lines.push(...parts);
      if (lines.some((l) => l.startsWith("key "))) resolve();
    });
  });
  const url = /listening on (\S+)/.exec(lines.find((l) => l.includes("listening on")) ?? "")?.[1];
  const key = lines.find((l) => l.startsWith("key "))?.split(" ")[3];
  if (!url || !key) throw new Error(`unexpected sandbox output: ${lines.join(" | ")}`);
  return {
    url,
    key,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

async function startInProcess(): Promise<Target> {
  const sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: LIFTED_RATE_LIMIT });
  return { url: sandbox.url, key: sandbox.keys[0].key, stop: sandbox.close };
}

interface Result {
  name: string;
  requests: number;
  seconds: number;
  statuses: Map<number, number>;
  latenciesMs: number[];
}

async function run(
  name: string,
  target: Target,
  method: string,
  path: string,
  body: (i: number) => string | undefined,
): Promise<Result> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const { hostname, port } = new URL(target.url);
  const statuses = new Map<number, number>();
  const latenciesMs: number[] = [];
  let counter = 0;
  const one = (payload: string | undefined) =>
    new Promise<number>((resolve, reject) => {
      const headers: Record<string, string | number> = { Authorization: `Bearer ${target.key}` };
      if (payload !== undefined) {
        headers["Content-Type"] = "application/json";
        headers["Content-Length"] = Buffer.byteLength(payload);
      }
      const req = request({ agent, hostname, port, method, path, headers }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end(payload);
    });

  // warm-up: JIT, sockets
  for (let i = 0; i < 200; i++) await one(body(counter++));
  const start = performance.now();
  const deadline = start + durationMs;
  let requests = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const status = await one(body(counter++));
        latenciesMs.push(performance.now() - t0);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        requests++;
      }
    }),
  );
  agent.destroy();
  return { name, requests, seconds: (performance.now() - start) / 1000, statuses, latenciesMs };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function report(r: Result): void {
  const sorted = [...r.latenciesMs].sort((a, b) => a - b);
  const statuses = [...r.statuses].map(([s, n]) => `${s}x${n}`).join(" ");
  console.log(
    `${r.name.padEnd(16)} ${(r.requests / r.seconds).toFixed(0).padStart(7)} req/s   p50 ${percentile(sorted, 50).toFixed(2)} ms   p99 ${percentile(sorted, 99).toFixed(2)} ms   (${r.requests} requests, ${statuses})`,
  );
}

const leadBody = (i: number) =>
  JSON.stringify({
    customer_name: "Bench Client",
    customer_phone: `06${String(i % 100_000_000).padStart(8, "0")}`,
    city: "Casablanca",
    address: "1 rue du Test",
    total_client: "149.00",
    items: [{ sku: "ARG-OIL-50", quantity: 1 }],
    external_ref: `bench-${i}`,
  });

const target = values["in-process"] ? await startInProcess() : await startOutOfProcess();
console.log(
  `sandbox benchmark: ${values["in-process"] ? "in-process" : "separate process"}, ${concurrency} concurrent keep-alive connections, ${durationMs / 1000} s per endpoint, Node ${process.version}`,
);
try {
  report(await run("GET /v1/me", target, "GET", "/v1/me", () => undefined));
  report(await run("POST /v1/leads", target, "POST", "/v1/leads", leadBody));
} finally {
  await target.stop();
}
