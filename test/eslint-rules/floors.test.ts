/**
 * The floors rule as `npm run lint` applies it: an import that runs up a floor,
 * across a floor, out of app/ into tooling, or a framework in a pure folder is
 * an error; an import down a floor or inside a folder is not.
 */
import { join } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { FLOORS, ROUTE_TARGETS, roomOf } from "../../eslint-rules/floors.js";

const root = join(import.meta.dirname, "..", "..");
const eslint = new ESLint({ cwd: root });

async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return result.messages.filter((m) => m.ruleId === "house/floors").map((m) => m.message);
}

describe("imports run down the floors", () => {
  it("refuses an import up a floor: models may not read the pipeline, the pipeline may not read a page", async () => {
    expect(
      await problems(
        "app/models/x.ts",
        'import { runPostLead } from "../sync/post-lead.server";\nexport const y = runPostLead;\n',
      ),
    ).toEqual([expect.stringMatching(/app\/models\/ \(floor \d+\) may not import app\/sync\/post-lead\.server/)]);
    expect(
      await problems(
        "app/sync/x.ts",
        'import type { OrdersPage } from "../pages/orders.server";\nexport type Y = OrdersPage;\n',
      ),
    ).toHaveLength(1);
    expect(await problems("app/db/x.ts", 'export { env } from "../env.server";\n')).toHaveLength(1);
  });

  it("refuses an import across one floor between two folders (they could import each other)", async () => {
    expect(
      await problems(
        "app/flow/x.ts",
        'import { holdHistory } from "../customers/sharing.server";\nexport const y = holdHistory;\n',
      ),
    ).toHaveLength(1);
  });

  it("keeps tooling out of the app and frameworks out of the pure folders", async () => {
    expect(
      await problems(
        "app/sync/x.ts",
        'import { signWebhook } from "../../scripts/dev/lib/webhook-signing";\nexport const y = signWebhook;\n',
      ),
    ).toEqual([expect.stringMatching(/app\/ may not import scripts\//)]);
    expect(
      await problems(
        "scripts/dev/x.ts",
        'import { createTestDatabase } from "../../test/helpers/db";\nexport const y = createTestDatabase;\n',
      ),
    ).toHaveLength(1);
    expect(
      await problems(
        "app/leads/x.ts",
        'import { PrismaClient } from "@prisma/client";\nexport const y = PrismaClient;\n',
      ),
    ).toEqual([expect.stringMatching(/app\/leads\/x\.ts is pure/)]);
    expect(await problems("app/queue/x.ts", 'import { run } from "graphile-worker";\nexport const y = run;\n')).toEqual(
      [expect.stringMatching(/app\/queue\/x\.ts may not import graphile-worker/)],
    );
    expect(await problems("worker.ts", 'import { run } from "graphile-worker";\nexport const y = run;\n')).toHaveLength(
      1,
    );
    expect(
      await problems("scripts/dev/x.ts", 'import { run } from "graphile-worker";\nexport const y = run;\n'),
    ).toEqual([]);
  });

  it("lets an import run down a floor or stay in its folder", async () => {
    expect(
      await problems(
        "app/pages/x.ts",
        'import { runPostLead } from "../sync/post-lead.server";\nexport const y = runPostLead;\n',
      ),
    ).toEqual([]);
    expect(
      await problems(
        "app/sync/x.ts",
        'import { applyLeadEvents } from "./lead-events.server";\nexport const y = applyLeadEvents;\n',
      ),
    ).toEqual([]);
    expect(await problems("app/pages/x.ts", 'import prisma from "../db.server";\nexport const y = prisma;\n')).toEqual(
      [],
    );
  });

  it("lets a route import its page module, the UI, the words, the Shopify entry and the error reference", async () => {
    const code = [
      'import { authenticate } from "../shopify.server";',
      'import { withErrorReference } from "../http/error-reference.server";',
      'import { orderPageData } from "../pages/order-page.server";',
      'import { OrderPage } from "../components/orders/OrderPage";',
      'import adminStyles from "../components/admin.css?url";',
      'import { pageTitle } from "../i18n/page-title";',
      'import { resolveLocale } from "../i18n";',
      "export const y = [authenticate, withErrorReference, orderPageData, OrderPage, adminStyles, pageTitle, resolveLocale];",
    ].join("\n");
    expect(await problems("app/routes/app.x.tsx", code)).toEqual([]);
    expect(
      await problems(
        "app/routes/x/route.tsx",
        'import { login } from "../../shopify.server";\nexport const y = login;\n',
      ),
    ).toEqual([]);
  });

  it("refuses a route anything else below its page: the database, the pipeline, the models, the rest of http/", async () => {
    for (const [spec, name] of [
      ["../db.server", "prisma"],
      ["../env.server", "env"],
      ["../sync/order-actions.server", "resendOrder"],
      ["../models/order-stage", "stageOf"],
      ["../http/form", "formText"],
      ["../webhooks/topics.server", "receiveOrderUpdated"],
    ]) {
      expect(
        await problems("app/routes/app.x.tsx", `import { ${name} } from "${spec}";\nexport const y = ${name};\n`),
      ).toEqual([
        expect.stringMatching(/app\/routes\/app\.x\.tsx is a route: it may import only app\/pages\/.*, not app\//),
      ]);
    }
    expect(
      await problems("app/routes/x/route.tsx", 'import prisma from "../../db.server";\nexport const y = prisma;\n'),
    ).toHaveLength(1);
  });

  it("lets a webhook route hand its delivery to webhooks/ and to nothing else", async () => {
    expect(
      await problems(
        "app/routes/webhooks.x.tsx",
        'import { receiveOrderUpdated } from "../webhooks/topics.server";\nexport const y = receiveOrderUpdated;\n',
      ),
    ).toEqual([]);
    for (const spec of ["../sync/order-intake.server", "../pages/order-page.server", "../db.server"]) {
      expect(
        await problems("app/routes/webhooks.x.tsx", `import * as m from "${spec}";\nexport const y = m;\n`),
      ).toEqual([expect.stringMatching(/is a route: it may import only app\/webhooks\/, not/)]);
    }
  });

  it("holds for every route of app/routes, and each target it allows is a room of the floors", async () => {
    const results = await eslint.lintFiles(["app/routes/**/*.{ts,tsx}"]);
    expect(results.length).toBeGreaterThan(30);
    expect(results.flatMap((r) => r.messages.filter((m) => m.ruleId === "house/floors").map((m) => m.message))).toEqual(
      [],
    );
    for (const target of Object.values(ROUTE_TARGETS).flat()) expect(roomOf(target), target).not.toBeNull();
  });

  it("gives every folder of app/ a floor", async () => {
    const { readdirSync } = await import("node:fs");
    const entries = readdirSync(join(root, "app"), { withFileTypes: true }).map((e) =>
      e.isDirectory() ? `app/${e.name}/` : `app/${e.name}`,
    );
    const code = entries.filter((e) => /\/$|\.server\.ts$|\.tsx?$/.test(e) && !e.endsWith(".d.ts"));
    expect(code.filter((path) => roomOf(path) === null)).toEqual([]);
    expect(FLOORS.flat().length).toBe(new Set(FLOORS.flat()).size);
  });
});
