/**
 * The link-state door rule as `npm run lint` applies it: a write of an order
 * link's state anywhere in app/ or scripts/ but the door (Prisma's create,
 * createMany, upsert, an update whose data names state, SQL that inserts into
 * OrderLink or sets its state) is an error naming the file, and so is a write
 * of its reason (reason, reasonText, a spread of reasonFields, SQL that sets
 * them); the door itself, and writes of a link's other columns, are not.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { DOOR, sqlWritesLinkReason, sqlWritesLinkState } from "../../eslint-rules/link-state-door.js";

const root = join(import.meta.dirname, "..", "..");
const eslint = new ESLint({ cwd: root });

async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return result.messages.filter((m) => m.ruleId === "house/link-state-door").map((m) => m.message);
}

const declared = "declare const tx: any;\n";

describe("an order link's state is written only through its door", () => {
  it("GIVEN a Prisma update whose data names state, in app/ or scripts/, WHEN linted, THEN it is refused naming the file", async () => {
    expect(
      await problems(
        "app/sync/x.ts",
        `${declared}await tx.orderLink.update({ where: { id: "1" }, data: { state: "received", reason: null } });\n`,
      ),
    ).toEqual([expect.stringMatching(/^app\/sync\/x\.ts writes an order link's state outside the door/)]);
    expect(
      await problems(
        "scripts/dev/x.ts",
        `${declared}await tx.orderLink.updateMany({ where: {}, data: { ...(a ? { state: "held" } : {}) } });\n`,
      ),
    ).toEqual([expect.stringMatching(/^scripts\/dev\/x\.ts /)]);
  });

  it("GIVEN a link created by Prisma outside the door, WHEN linted, THEN it is refused: a link is born with a state", async () => {
    expect(
      await problems("app/pages/x.ts", `${declared}await tx.orderLink.create({ data: { shop: "s" } });\n`),
    ).toHaveLength(1);
    expect(
      await problems("scripts/dev/x.ts", `${declared}await tx.orderLink.createMany({ data: rows });\n`),
    ).toHaveLength(1);
    expect(
      await problems("app/sync/x.ts", `${declared}await tx.orderLink.upsert({ where: {}, create: {}, update: {} });\n`),
    ).toHaveLength(1);
  });

  it("GIVEN SQL text that sets OrderLink's state or inserts a link, WHEN linted, THEN it is refused, however it is composed", async () => {
    expect(
      await problems(
        "app/sync/x.ts",
        'const SET = `"a" = ?`;\nexport const S = `UPDATE "OrderLink" SET ${SET}, "state" = \'posting\' WHERE "id" = ?`;\n',
      ),
    ).toHaveLength(1);
    expect(
      await problems("app/sync/x.ts", 'export const S = "UPDATE \\"OrderLink\\" l SET state = $1 WHERE l.id = $2";\n'),
    ).toHaveLength(1);
    expect(
      await problems(
        "app/sync/x.ts",
        `${declared}export const w = tx.$executeRaw\`INSERT INTO "OrderLink" ("id", "state") VALUES (\${1}, 'received')\`;\n`,
      ),
    ).toHaveLength(1);
  });

  it("GIVEN a Prisma update whose data writes the reason, outside the door, WHEN linted, THEN it is refused naming the file", async () => {
    const reasonWrite = /^app\/sync\/x\.ts writes an order link's reason outside the door/;
    expect(
      await problems(
        "app/sync/x.ts",
        `${declared}await tx.orderLink.update({ where: { id: "1" }, data: { reason: "x" } });\n`,
      ),
    ).toEqual([expect.stringMatching(reasonWrite)]);
    expect(
      await problems(
        "app/sync/x.ts",
        `${declared}await tx.orderLink.update({ where: { id: "1" }, data: { findings: "[]", ...reasonFields(text) } });\n`,
      ),
    ).toEqual([expect.stringMatching(reasonWrite)]);
    expect(
      await problems(
        "app/sync/x.ts",
        `${declared}await tx.orderLink.update({ where: { id: "1" }, data: reasonFields(text) });\n`,
      ),
    ).toEqual([expect.stringMatching(reasonWrite)]);
    expect(
      await problems(
        "scripts/dev/x.ts",
        `${declared}await tx.orderLink.updateMany({ where: {}, data: { ...(a ? { reasonText: null } : {}) } });\n`,
      ),
    ).toEqual([expect.stringMatching(/^scripts\/dev\/x\.ts writes an order link's reason outside the door/)]);
  });

  it("GIVEN SQL text that sets OrderLink's reason, WHEN linted, THEN it is refused; a reason read or another table's is not", async () => {
    expect(
      await problems(
        "app/sync/x.ts",
        'export const S = `UPDATE "OrderLink" SET "reasonText" = ?, "updatedAt" = ? WHERE "id" = ?`;\n',
      ),
    ).toHaveLength(1);
    expect(sqlWritesLinkReason(`UPDATE "OrderLink" l SET reason = NULL WHERE l.id = ?`)).toBe(true);
    expect(sqlWritesLinkReason(`SELECT "reason" FROM "OrderLink" WHERE "reason" = ?`)).toBe(false);
    expect(sqlWritesLinkReason(`UPDATE "Job" SET "reason" = ? WHERE "id" = ?`)).toBe(false);
    expect(sqlWritesLinkReason(`UPDATE "OrderLink" SET "writtenBack" = ? WHERE "id" = ? AND "reason" = ?`)).toBe(false);
  });

  it("GIVEN writes of a link's other columns, or a read of its state, WHEN linted, THEN they pass", async () => {
    expect(
      await problems(
        "app/sync/x.ts",
        `${declared}await tx.orderLink.update({ where: { id: "1", state: "held" }, data: { flags: "[]", ...reasons } });\n` +
          'export const S = `UPDATE "OrderLink" SET "writtenBack" = ?, "updatedAt" = ? WHERE "id" = ? AND "state" = \'created\'`;\n' +
          'export const R = `SELECT "state" FROM "OrderLink" WHERE "state" = ?`;\n' +
          `await tx.orderLink.findMany({ where: { state: "held" } });\n`,
      ),
    ).toEqual([]);
    expect(sqlWritesLinkState(`UPDATE "Job" SET "state" = 'done' WHERE "id" = ?`)).toBe(false);
  });

  it("GIVEN the door itself, WHEN linted, THEN its writes pass", async () => {
    expect(
      await problems(
        DOOR,
        `${declared}export const S = \`UPDATE "OrderLink" SET "state" = ? WHERE "id" = ?\`;\nawait tx.orderLink.createMany({ data: [] });\n`,
      ),
    ).toEqual([]);
  });

  it("GIVEN the repository as it is, WHEN app/ and scripts/ are linted, THEN no file but the door writes a link's state", async () => {
    const files = execFileSync("git", ["ls-files", "app", "scripts"], { cwd: root, encoding: "utf8" })
      .split("\n")
      .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts"));
    const doorOnly = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === "house/link-state-door" });
    const results = await doorOnly.lintFiles(files.map((f) => join(root, f)));
    const offenders = results
      .filter((r) => r.messages.some((m) => m.ruleId === "house/link-state-door"))
      .map((r) => r.filePath.slice(root.length + 1));
    expect(offenders).toEqual([]);
  }, 300_000);
});
