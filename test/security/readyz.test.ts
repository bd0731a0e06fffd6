/**
 * The public /readyz (the app's own port, no authentication) says ready or not and
 * nothing else: no host, no process id, no database kind or missing column. The
 * report with those stays on the metrics listener (METRICS_PORT, loopback by
 * default). Through the production server, with an in-process worker, whose owner
 * names the host and pid.
 */
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { freePort } from "../helpers/preview-server";
import { useAppServer } from "./app-server";

const metricsPort = await freePort();
const server = useAppServer({
  env: { WORKER_IN_PROCESS: "true", METRICS_PORT: String(metricsPort), METRICS_HOST: "127.0.0.1" },
});

describe("readiness on the app's own port", () => {
  it("GIVEN a ready server with a worker WHEN anyone asks /readyz THEN the answer is {ready: true} and nothing else", async () => {
    const response = await fetch(`${server().url}/readyz`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ ready: true });
    expect(text).not.toContain(hostname());
    expect(text).not.toContain(String(server().pid));

    // The operator's detail, on the metrics listener: the worker's owner names the host and pid.
    const detail = await fetch(`http://127.0.0.1:${metricsPort}/readyz`);
    expect(detail.status).toBe(200);
    expect(await detail.json()).toMatchObject({
      ready: true,
      database: { ok: true },
      schema: { ok: true },
      worker: { ok: true, owner: expect.stringContaining(String(server().pid)) },
    });
  });
});
