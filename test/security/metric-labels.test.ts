/**
 * The metrics' label values come from a closed set, never from a request: through
 * the production server, 1,000 unauthenticated POSTs to distinct paths under
 * /webhooks/ (and long, encoded and cased ones) leave the series count of
 * /metrics where it was, every such request counted under topic "unknown".
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { WEBHOOK_TOPICS } from "../../app/shopify/webhook-topics";
import { webhookTopicOf } from "../../app/runtime/request-log.server";
import { useAppServer } from "./app-server";

const METRICS_TOKEN = "metric-labels-test-token-0123456789";
const server = useAppServer({ env: { METRICS_TOKEN } });

async function scrape(): Promise<string> {
  const response = await fetch(`${server().url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(response.status).toBe(200);
  return response.text();
}

/** The app's own series (Node's default families may gain a GC kind on their own). */
const appSeries = (text: string) => text.split("\n").filter((line) => line.startsWith("cod_"));
const seriesName = (line: string) => line.slice(0, line.lastIndexOf(" "));
const topicsIn = (series: string[]) =>
  new Set(series.flatMap((line) => [...line.matchAll(/topic="([^"]*)"/g)].map((m) => m[1])));

async function postAll(paths: string[], concurrency = 16): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < paths.length) {
        const path = paths[next++];
        const response = await fetch(`${server().url}${path}`, { method: "POST", body: "{}" });
        await response.arrayBuffer();
      }
    }),
  );
}

describe("metric labels from requests", () => {
  it("GIVEN 1,000 POSTs to distinct unknown webhook paths WHEN /metrics is scraped THEN no series was added", async () => {
    const paths = Array.from({ length: 1004 }, (_, i) =>
      i % 4 === 0
        ? `/webhooks/x${i}/${"a".repeat(2000)}`
        : i % 4 === 1
          ? `/WEBHOOKS/Orders/Create${i}`
          : i % 4 === 2
            ? `/webhooks/%6frders%2f${i}`
            : `/webhooks/x${i}`,
    );
    // Every label value these requests can add, once: a subscribed topic (unsigned: 401) and one path of each shape.
    await postAll(["/webhooks/orders/create", ...paths.slice(0, 4)]);
    await scrape(); // a scrape counts itself once answered
    const before = appSeries(await scrape());

    await postAll(paths.slice(4));
    const after = appSeries(await scrape());

    expect(after.map(seriesName)).toEqual(before.map(seriesName));
    expect([...topicsIn(after)].sort()).toEqual(["orders/create", "unknown"]);
    const unknown = after.find((l) => l.startsWith('cod_webhook_ack_seconds_count{topic="unknown"}'));
    expect(Number(unknown?.split(" ")[1])).toBeGreaterThanOrEqual(1001);
  }, 120_000);

  it("names exactly the topics shopify.app.toml subscribes to, each with its route", () => {
    const toml = parse(readFileSync(join(import.meta.dirname, "..", "..", "shopify.app.toml"), "utf8")) as {
      webhooks: { subscriptions: { topics?: string[]; compliance_topics?: string[]; uri: string }[] };
    };
    const subscribed = toml.webhooks.subscriptions.flatMap((s) => {
      const topics = [...(s.topics ?? []), ...(s.compliance_topics ?? [])];
      for (const topic of topics) expect(s.uri).toBe(`/webhooks/${topic}`);
      return topics;
    });
    expect([...WEBHOOK_TOPICS].sort()).toEqual(subscribed.sort());
    for (const topic of WEBHOOK_TOPICS) expect(webhookTopicOf(`/webhooks/${topic}`)).toBe(topic);
    expect(webhookTopicOf("/webhooks/seller/secret-token")).toBe("platform_events");
    expect(webhookTopicOf("/webhooks/orders/create/extra")).toBe("unknown");
    expect(webhookTopicOf("/webhooks/")).toBe("unknown");
  });
});
