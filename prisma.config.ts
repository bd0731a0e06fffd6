// Prisma CLI configuration: `prisma generate` (npm install runs it) and the
// `prisma migrate diff --script` of `npm run db:new-migration`. Migrations are
// applied by app/db/migrations.server.ts, not by `prisma migrate`, whose
// JavaScript schema engine fails on PostgreSQL offline
// (docs/decisions/0002-two-migration-trees.md). The JavaScript engine with the
// node-postgres driver adapter needs no native engine download, which these
// offline machines cannot do.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

// Read by the schema's env("DATABASE_URL") and a Prisma config file turns off .env
// loading: generating connects to nothing, and db:new-migration sets its own server's.
process.env.DATABASE_URL ||= "postgresql://localhost/unused";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(import.meta.dirname, "prisma", "schema.prisma"),
  migrations: { path: path.join(import.meta.dirname, "prisma", "migrations") },
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL! });
  },
});
