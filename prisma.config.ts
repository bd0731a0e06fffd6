// Prisma CLI configuration. The JavaScript schema engine with the libsql driver
// adapter needs no native engine download, which these offline machines cannot do.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { DEFAULT_DATABASE_URL } from "./app/db/url";

// The schema reads env("DATABASE_URL") and a Prisma config file turns off .env
// loading, so the embedded default is applied here for every CLI command.
process.env.DATABASE_URL ||= DEFAULT_DATABASE_URL;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    return new PrismaLibSQL({ url: process.env.DATABASE_URL! });
  },
});
