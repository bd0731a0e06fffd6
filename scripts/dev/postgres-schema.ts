/**
 * `npm run db:generate` runs this after `prisma generate`: writes
 * prisma/postgres/schema.prisma from prisma/schema.prisma (scripts/dev/lib/postgres-schema.ts
 * says what differs) and generates its client into node_modules/.prisma/client-pg.
 * `--check` writes nothing and fails when the file is out of date.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { postgresSchema } from "./lib/postgres-schema";

const root = join(import.meta.dirname, "..", "..");
const source = join(root, "prisma", "schema.prisma");
const target = join(root, "prisma", "postgres", "schema.prisma");
const clientDir = join(root, "node_modules", ".prisma", "client-pg");
const wanted = postgresSchema(readFileSync(source, "utf8"));
let current = "";
try {
  current = readFileSync(target, "utf8");
} catch {
  // Not written yet.
}

if (process.argv.includes("--check")) {
  if (current !== wanted) {
    console.error("prisma/postgres/schema.prisma is out of date: run `npm run db:generate`.");
    process.exit(1);
  }
  process.exit(0);
}

if (current !== wanted) {
  writeFileSync(target, wanted);
  console.log("wrote prisma/postgres/schema.prisma");
}

// The datasource's env("DATABASE_URL") must look like a PostgreSQL URL for the
// schema to validate; generating connects to nothing.
execFileSync(
  process.execPath,
  [join(root, "node_modules", "prisma", "build", "index.js"), "generate", "--schema", target],
  {
    cwd: root,
    env: { ...process.env, DATABASE_URL: "postgresql://localhost/generate", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    stdio: ["ignore", "inherit", "inherit"],
  },
);

/**
 * A client generated to a custom path carries its own copy of Prisma's runtime,
 * hence its own Prisma.sql fragment and error classes: the app's `Prisma.sql`
 * nested in a query, or its `instanceof Prisma.PrismaClientKnownRequestError`,
 * would not recognise them. Point it at @prisma/client's runtime (the same
 * version, byte for byte apart from a header) so both clients share one.
 */
for (const file of readdirSync(clientDir).filter((f) => /\.(c?js|d\.ts)$/.test(f))) {
  const path = join(clientDir, file);
  const text = readFileSync(path, "utf8");
  const shared = text.replace(/(require\(|from )'\.\/runtime\//g, "$1'@prisma/client/runtime/");
  if (shared !== text) writeFileSync(path, shared);
}
rmSync(join(clientDir, "runtime"), { recursive: true, force: true });
