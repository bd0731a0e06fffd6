// Prisma CLI configuration for the PostgreSQL schema (generated from
// prisma/schema.prisma): `prisma generate` and `prisma migrate diff --script`
// with --config pointing here. Migrations are applied by app/db/migrations.server.ts,
// not by `prisma migrate`, whose JavaScript schema engine fails on PostgreSQL.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

// Read by the schema's env("DATABASE_URL"); generating and diffing connect to nothing.
process.env.DATABASE_URL ||= "postgresql://localhost/unused";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(import.meta.dirname, "schema.prisma"),
  migrations: { path: path.join(import.meta.dirname, "..", "migrations-postgres") },
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL! });
  },
});
