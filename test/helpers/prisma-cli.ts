/** Prisma's CLI, run with the project's own Node on a given database (the migration drift tests). */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

export const root = join(import.meta.dirname, "..", "..");

export const prisma = (args: string[], databaseUrl: string) =>
  execFileSync(process.execPath, [join(root, "node_modules", "prisma", "build", "index.js"), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
