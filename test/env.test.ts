import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { databaseUrl, EnvError, parseEnv } from "../app/env.server";

const valid = {
  SHOPIFY_API_KEY: "key",
  SHOPIFY_API_SECRET: "secret",
  SHOPIFY_APP_URL: "https://app.example.com",
  ENCRYPTION_KEY: "VqJ5qmHHV7mH/M7LjXtoTq4HkC1VSWXSG4UO71uTeDk=",
};

describe("parseEnv", () => {
  it("applies the defaults, and leaves DATABASE_URL unset for the embedded database", () => {
    const env = parseEnv(valid);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SCOPES.split(",")).toContain("read_orders");
    expect(env.LOG_LEVEL).toBe("info");
  });

  it("names every missing or malformed variable in one error", () => {
    const attempt = () =>
      parseEnv({
        SHOPIFY_API_KEY: "key",
        SHOPIFY_API_SECRET: "",
        SHOPIFY_APP_URL: "not a url",
        ENCRYPTION_KEY: "c2hvcnQ=",
      });
    expect(attempt).toThrow(EnvError);
    try {
      attempt();
    } catch (error) {
      const { problems, message } = error as EnvError;
      expect(problems).toHaveLength(3);
      expect(message).toMatch(/SHOPIFY_API_SECRET is required/);
      expect(message).toMatch(/SHOPIFY_APP_URL must be the app's public https URL/);
      expect(message).toMatch(/ENCRYPTION_KEY must be 32 bytes/);
    }
  });

  it("takes a PostgreSQL URL and refuses any other database, without echoing it", () => {
    expect(parseEnv({ ...valid, DATABASE_URL: "postgresql://cod:secret@db.internal:5432/cod" }).DATABASE_URL).toBe(
      "postgresql://cod:secret@db.internal:5432/cod",
    );
    expect(parseEnv({ ...valid, DATABASE_URL: "postgres://db/cod" }).DATABASE_URL).toBe("postgres://db/cod");
    for (const other of ["file:./prisma/dev.db", "mysql://cod:s3cret@db/cod"]) {
      expect(() => parseEnv({ ...valid, DATABASE_URL: other })).toThrow(/DATABASE_URL must be a PostgreSQL URL/);
      expect(() => parseEnv({ ...valid, DATABASE_URL: other })).not.toThrow(/s3cret|dev\.db/);
    }
    expect(parseEnv({ ...valid, DATABASE_POOL_SIZE: "20" }).DATABASE_POOL_SIZE).toBe(20);
    expect(() => parseEnv({ ...valid, DATABASE_POOL_SIZE: "0" })).toThrow(/DATABASE_POOL_SIZE must be at least 1/);
  });

  it("GIVEN no DATABASE_URL WHEN a process that only connects asks for it THEN it stops with one message saying what to set", () => {
    vi.stubEnv("DATABASE_URL", "");
    try {
      expect(() => databaseUrl()).toThrow(EnvError);
      expect(() => databaseUrl()).toThrow(/DATABASE_URL is required \(postgresql:\/\/user:password@host:5432\/db\)/);
    } finally {
      vi.unstubAllEnvs();
    }
    vi.stubEnv("DATABASE_URL", "postgresql://cod@db.internal/cod");
    try {
      expect(databaseUrl()).toBe("postgresql://cod@db.internal/cod");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("accepts HEAP_GROWTH_PERCENT as whole percent from 0 to 400 and names anything else", () => {
    expect(parseEnv({ ...valid, HEAP_GROWTH_PERCENT: "0" }).HEAP_GROWTH_PERCENT).toBe(0);
    expect(parseEnv({ ...valid, HEAP_GROWTH_PERCENT: "80" }).HEAP_GROWTH_PERCENT).toBe(80);
    expect(() => parseEnv({ ...valid, HEAP_GROWTH_PERCENT: "1.5" })).toThrow(
      /HEAP_GROWTH_PERCENT must be a whole number of percent/,
    );
    expect(() => parseEnv({ ...valid, HEAP_GROWTH_PERCENT: "-10" })).toThrow(/HEAP_GROWTH_PERCENT/);
    expect(() => parseEnv({ ...valid, HEAP_GROWTH_PERCENT: "1000" })).toThrow(/HEAP_GROWTH_PERCENT/);
  });
});

describe("one owner of the environment", () => {
  it("no file of app/, the entry points or the operator commands reads process.env but app/env.server.ts", () => {
    const found = spawnSync(
      "git",
      [
        "grep",
        "-n",
        "-I",
        "-E",
        "process\\.env",
        "--",
        "app",
        "server.ts",
        "worker.ts",
        "scripts/ops",
        ":!app/env.server.ts",
      ],
      {
        cwd: join(import.meta.dirname, ".."),
        encoding: "utf8",
      },
    );
    // git grep exits 1 when nothing matches.
    expect(found.stdout).toBe("");
    expect(found.status).toBe(1);
  });
});
