/**
 * The Grafana dashboard and the alerting rules in docs/ query only what the app
 * exports: every metric they name is registered by the app's processes (a web
 * server's families, the database gauges and a PostgreSQL pool's, Node's own),
 * with the labels they filter and group by. A renamed metric or label breaks
 * this test, not an operator's dashboard on the night it is needed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db/client";
import { registerDatabaseMetrics } from "../../app/runtime/database-metrics.server";
import { metrics } from "../../app/runtime/metrics.server";

const docs = join(import.meta.dirname, "..", "..", "docs");
// A PostgreSQL client never connected: it registers the pool's gauge like the app's; nothing is read here.
const postgres = createPrismaClient("postgresql://nobody:nothing@127.0.0.1:9/none", 3);
afterAll(() => postgres.$disconnect());

/** Every family the app registers, with its labels. */
function exported(): Map<string, Set<string>> {
  registerDatabaseMetrics(postgres, true);
  const families = new Map<string, Set<string>>();
  for (const metric of metrics().registry.getMetricsAsArray()) {
    const { name, labelNames } = metric as unknown as { name: string; labelNames?: string[] };
    families.set(name, new Set(labelNames ?? []));
  }
  return families;
}

const PREFIXES = /\b((?:cod|process|nodejs)_[a-z0-9_]+)(\{[^}]*\})?/g;
const SUFFIXES = /_(bucket|sum|count)$/;

interface Problem {
  expr: string;
  problem: string;
}

/** What an expression asks of the app's metrics that they do not have. */
function problemsOf(expr: string, families: Map<string, Set<string>>): Problem[] {
  const problems: Problem[] = [];
  const labelsInExpr = new Set<string>(["le", "instance", "job"]);
  let named = 0;
  for (const [, raw, selector] of expr.matchAll(PREFIXES)) {
    const family = families.has(raw) ? raw : raw.replace(SUFFIXES, "");
    const labels = families.get(family);
    if (!labels) {
      problems.push({ expr, problem: `${raw} is not exported` });
      continue;
    }
    named++;
    for (const label of labels) labelsInExpr.add(label);
    for (const [, label] of (selector ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!=|!~|=)/g)) {
      const allowed =
        label === "le" && raw.endsWith("_bucket")
          ? true
          : labels.has(label) || (label === "quantile" && family === "cod_event_loop_delay_seconds");
      if (!allowed) problems.push({ expr, problem: `${family} has no label ${label}` });
    }
  }
  if (named === 0) problems.push({ expr, problem: "names no metric of the app" });
  for (const [, list] of expr.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)) {
    for (const label of list
      .split(",")
      .map((l) => l.trim())
      .filter(Boolean)) {
      if (!labelsInExpr.has(label))
        problems.push({ expr, problem: `groups by ${label}, which none of its metrics has` });
    }
  }
  return problems;
}

describe("operations documents", () => {
  const families = exported();

  it("the Grafana dashboard's queries name only metrics and labels the app exports", () => {
    const dashboard = JSON.parse(readFileSync(join(docs, "grafana", "cod-lead-sync.json"), "utf8")) as {
      panels: { title: string; targets?: { expr: string }[] }[];
    };
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(30);
    expect(exprs.flatMap((e) => problemsOf(e, families))).toEqual([]);
    // Every app family (cod_*) has a panel.
    const shown = new Set(
      exprs.flatMap((e) =>
        [...e.matchAll(PREFIXES)].map(([, name]) => (families.has(name) ? name : name.replace(SUFFIXES, ""))),
      ),
    );
    const missing = [...families.keys()].filter(
      (f) => f.startsWith("cod_") && f !== "cod_process_info" && !shown.has(f),
    );
    expect(missing).toEqual([]);
  });

  it("the alerting rules name only metrics and labels the app exports, and the runbook explains each", () => {
    const rules = parseYaml(readFileSync(join(docs, "prometheus", "cod-lead-sync-alerts.yml"), "utf8")) as {
      groups: {
        rules: { alert: string; expr: string; labels: { severity: string }; annotations: { runbook: string } }[];
      }[];
    };
    const all = rules.groups.flatMap((g) => g.rules);
    expect(all.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        "PostLeadQueueBehind",
        "SellerApi429Share",
        "ShopsPausedByRejectedKeys",
        "ReconciliationRecoveringOrders",
      ]),
    );
    expect(all.flatMap((r) => problemsOf(r.expr, families))).toEqual([]);
    const runbook = readFileSync(join(docs, "operations.md"), "utf8");
    for (const rule of all) {
      const anchor = rule.annotations.runbook.split("#")[1];
      // A heading whose GitHub anchor is the rule's: "### PostLeadQueueBehind" -> #postleadqueuebehind.
      const headings = [...runbook.matchAll(/^#{2,4} (.+)$/gm)].map(([, h]) =>
        h
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, "")
          .replace(/ /g, "-"),
      );
      expect(headings, `${rule.alert}: no runbook section #${anchor}`).toContain(anchor);
    }
    // The thresholds the runbook states are the rules' own.
    expect(all.find((r) => r.alert === "PostLeadQueueBehind")!.expr).toContain("> 300");
    expect(all.find((r) => r.alert === "SellerApi429Share")!.expr).toContain("> 0.01");
  });

  it("catches a query on a metric or label the app does not export", () => {
    expect(problemsOf('sum(rate(cod_webhook_requests_total{shop="a.myshopify.com"}[5m]))', families)).toEqual([
      { expr: expect.any(String), problem: "cod_webhook_requests_total has no label shop" },
    ]);
    expect(problemsOf("max(cod_queue_depth)", families)[0].problem).toBe("cod_queue_depth is not exported");
    expect(problemsOf("sum by (shop) (rate(cod_jobs_total[5m]))", families)[0].problem).toContain("groups by shop");
  });
});
