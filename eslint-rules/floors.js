/**
 * The house's floors: each folder of app/ stands on one floor, and an import may
 * only run down to a lower floor (or stay inside its own folder). So data flows
 * one way — webhook -> pipeline -> models -> pages — and no two folders can
 * import each other. docs/decisions/0007-floors.md says why the order is so.
 *
 * Also: app/ never imports scripts/, test/, the sandbox or the Shopify and ad platform stand-ins, nor a
 * queue engine that is only a candidate (graphile-worker, a dev dependency run by the benchmarks);
 * scripts/ never import test/; the pure floors (leads/, seller-api/, ad-platforms/, vocabulary/) import
 * neither Prisma nor Remix nor React.
 */
import { dirname, relative, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");

/** Top floor first. A path matches the longest prefix listed. */
export const FLOORS = [
  ["app/routes/", "app/root.tsx", "app/entry.server.tsx", "server.ts", "worker.ts"],
  ["app/components/"],
  ["app/pages/", "app/worker.server.ts"],
  ["app/webhooks/"],
  ["app/shopify.server.ts"],
  ["app/sync/"],
  ["app/flow/", "app/customers/", "app/ad-feed/"],
  ["app/analytics/"],
  ["app/models/", "app/runtime/"],
  ["app/leads/", "app/queue/", "app/net/", "app/db.server.ts", "app/ad-platforms/"],
  ["app/seller-api/", "app/odds/", "app/env.server.ts"],
  ["app/http/", "app/crypto/", "app/db/", "app/i18n/", "app/time-zone.ts", "app/shopify/"],
  // The platform's statuses and the one reading of where an order stands: shopify/ (write-back
  // tags) and i18n/ (the statuses' words) need them too, so they stand below every other floor.
  ["app/vocabulary/"],
];

const prefixes = FLOORS.flatMap((room, i) => room.map((prefix) => ({ prefix, floor: FLOORS.length - i }))).sort(
  (a, b) => b.prefix.length - a.prefix.length,
);

/** The room (folder or file) a repository path stands in, and its floor; null outside the floors. */
export function roomOf(path) {
  const hit = prefixes.find(({ prefix }) =>
    prefix.endsWith("/") ? path.startsWith(prefix) : path === prefix || path.startsWith(prefix.replace(/\.tsx?$/, "")),
  );
  return hit ? { room: hit.prefix, floor: hit.floor } : null;
}

const OUTSIDE_APP = ["scripts/", "test/", "sandbox/", "shopify-admin/", "ads-stand-in/"];
const PURE = ["app/leads/", "app/seller-api/", "app/ad-platforms/", "app/odds/", "app/vocabulary/"];
const NOT_IN_PURE = /^(@prisma\/|@remix-run\/|react$|react-dom|@shopify\/polaris)/;

/** Packages only tooling may import: the app's entries and app/ never do. */
const TOOLING_ONLY = /^graphile-worker(\/|$)/;
const isApp = (path) => path.startsWith("app/") || path === "server.ts" || path === "worker.ts";

function problem(fromPath, spec) {
  if (!spec.startsWith(".")) {
    if (isApp(fromPath) && TOOLING_ONLY.test(spec))
      return `${fromPath} may not import ${spec}: a queue engine only the benchmarks run as a candidate (decision 0024)`;
    if (PURE.some((p) => fromPath.startsWith(p)) && NOT_IN_PURE.test(spec))
      return `${fromPath} is pure: it may not import ${spec}`;
    return null;
  }
  const toPath = relative(root, resolve(root, dirname(fromPath), spec))
    .split("\\")
    .join("/");
  if (fromPath.startsWith("app/") && OUTSIDE_APP.some((p) => toPath.startsWith(p)))
    return `app/ may not import ${toPath} (tooling imports the app, never the reverse)`;
  if (fromPath.startsWith("scripts/") && toPath.startsWith("test/")) return `scripts/ may not import ${toPath}`;
  if (
    fromPath.startsWith("app/routes/") &&
    toPath.startsWith("app/") &&
    !toPath.startsWith("app/routes/") &&
    !routeMayImport(fromPath, toPath)
  ) {
    const targets = ROUTE_TARGETS[routeKindOf(fromPath)].join(", ");
    return `${fromPath} is a route: it may import only ${targets}, not ${toPath} (move the work into its page module; eslint-rules/floors.js)`;
  }
  const from = roomOf(fromPath);
  const to = roomOf(toPath);
  if (!from || !to || from.room === to.room) return null;
  if (to.floor >= from.floor) {
    return `${from.room} (floor ${from.floor}) may not import ${toPath} (${to.room}, floor ${to.floor}): imports run down the floors (eslint-rules/floors.js)`;
  }
  return null;
}

/**
 * What a route module (app/routes/) may import from app/. A page or endpoint route: its page module
 * (pages/*-page.server.ts, pages/*-endpoint.server.ts), the UI, the words, the Shopify entry that
 * authenticates, and the wrapper that gives every admin loader and action an error reference the
 * merchant can quote (it wraps authentication too, so it stays in the route). A webhook route: its
 * topic's receiver in webhooks/, which verifies, deduplicates and handles the delivery.
 */
export const ROUTE_TARGETS = {
  page: ["app/pages/", "app/components/", "app/i18n/", "app/shopify.server.ts", "app/http/error-reference.server.ts"],
  webhook: ["app/webhooks/"],
};

const routeKindOf = (path) => (path.startsWith("app/routes/webhooks.") ? "webhook" : "page");

function routeMayImport(fromPath, toPath) {
  return ROUTE_TARGETS[routeKindOf(fromPath)].some((target) =>
    target.endsWith("/")
      ? toPath.startsWith(target) || toPath === target.slice(0, -1) // a folder's index
      : toPath === target || toPath === target.replace(/\.tsx?$/, ""),
  );
}

const rule = {
  meta: { type: "problem", docs: { description: "imports run down the house's floors" }, schema: [] },
  create(context) {
    const fromPath = relative(root, context.filename).split("\\").join("/");
    const check = (node, source) => {
      if (!source || typeof source.value !== "string") return;
      const message = problem(fromPath, source.value);
      if (message) context.report({ node, message });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

export default { rules: { floors: rule } };
