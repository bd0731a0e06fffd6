/**
 * The SQLite connection that keeps prepared statements (app/db/sqlite-connection.ts):
 * a statement reused from its cache binds its new arguments and answers with the
 * current data; values come back as @libsql/client gave them; errors keep the
 * SQLite codes Prisma maps (a unique violation stays P2002); past the cache's
 * size, evicted statements are prepared again and still right.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Prisma } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteConnection, sqliteFilePath } from "../../app/db/sqlite-connection";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

describe("SQLite connection with kept statements", () => {
  let dir: string;
  let connection: SqliteConnection;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "sqlite-connection-"));
    connection = new SqliteConnection(`file:${join(dir, "c.sqlite")}`);
    await connection.executeMultiple(
      "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, big INTEGER, data BLOB, at REAL)",
    );
  });
  afterAll(() => {
    connection.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("WHEN one statement text runs again with other arguments THEN each run binds its own and sees the rows written since", async () => {
    const insert = "INSERT INTO t (name, big) VALUES (?, ?)";
    const first = await connection.execute({ sql: insert, args: ["a", 1] });
    const second = await connection.execute({ sql: insert, args: ["b", 2] });
    expect(first.rowsAffected).toBe(1);
    expect(second.lastInsertRowid).toBe(first.lastInsertRowid! + 1n);
    const select = "SELECT name, big FROM t WHERE big >= ? ORDER BY big";
    expect((await connection.execute({ sql: select, args: [2] })).rows).toEqual([["b", 2]]);
    expect((await connection.execute({ sql: select, args: [1] })).rows).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    await connection.execute({ sql: insert, args: ["c", 3] });
    const again = await connection.execute({ sql: select, args: [1] });
    expect(again.columns).toEqual(["name", "big"]);
    expect(again.rows.map((r) => r[0])).toEqual(["a", "b", "c"]);
  });

  it("WHEN values go in and out THEN booleans, dates, blobs and integers keep @libsql/client's forms, and an integer past 2^53 is refused", async () => {
    const at = new Date("2026-11-25T10:00:00.000Z");
    const bytes = new Uint8Array([1, 2, 250]).buffer;
    await connection.execute({
      sql: "INSERT INTO t (name, big, data, at) VALUES (?, ?, ?, ?)",
      args: ["v", true, bytes, at],
    });
    const { rows, columnTypes } = await connection.execute({
      sql: "SELECT big, data, at FROM t WHERE name = ?",
      args: ["v"],
    });
    expect(columnTypes).toEqual(["INTEGER", "BLOB", "REAL"]);
    expect(rows[0][0]).toBe(1);
    expect([...new Uint8Array(rows[0][1] as ArrayBuffer)]).toEqual([1, 2, 250]);
    expect(rows[0][2]).toBe(at.valueOf());
    await connection.execute({ sql: "INSERT INTO t (name, big) VALUES (?, ?)", args: ["huge", 2n ** 60n] });
    await expect(connection.execute({ sql: "SELECT big FROM t WHERE name = ?", args: ["huge"] })).rejects.toThrow(
      RangeError,
    );
    await expect(connection.execute({ sql: "SELECT ? AS x", args: [undefined] })).rejects.toThrow(TypeError);
  });

  it("WHEN a statement breaks a constraint THEN the error carries SQLite's code and extended code", async () => {
    const error = await connection
      .execute({ sql: "INSERT INTO t (name) VALUES (?)", args: ["a"] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "SQLITE_CONSTRAINT_UNIQUE", rawCode: 2067 });
    // The statement that failed is kept and runs again cleanly.
    expect(
      (await connection.execute({ sql: "INSERT INTO t (name) VALUES (?)", args: ["after-error"] })).rowsAffected,
    ).toBe(1);
  });

  it("WHEN more statement texts run than the cache keeps THEN the evicted ones are prepared again and answer right", async () => {
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 600; i++) {
        const { rows } = await connection.execute({ sql: `SELECT ? + ${i} AS n`, args: [round] });
        expect(rows[0][0]).toBe(round + i);
      }
    }
  });

  it("WHEN it is closed THEN a statement is refused", async () => {
    const other = new SqliteConnection(`file:${join(dir, "closed.sqlite")}`);
    other.close();
    await expect(other.execute("SELECT 1")).rejects.toThrow(/closed/);
  });

  it("reads the path of every file URL form", () => {
    expect(sqliteFilePath("file:./dev.sqlite")).toBe("./dev.sqlite");
    expect(sqliteFilePath("file:/tmp/a%20b.sqlite")).toBe("/tmp/a b.sqlite");
    expect(sqliteFilePath("file:///tmp/a.sqlite")).toBe("/tmp/a.sqlite");
    expect(sqliteFilePath("file://localhost/tmp/a.sqlite?mode=rwc")).toBe("/tmp/a.sqlite");
    expect(() => sqliteFilePath("postgres://x/y")).toThrow(/file:/);
  });
});

describe("Prisma on the kept-statements connection", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.cleanup();
  });

  it("WHEN a unique key is taken twice THEN Prisma still answers P2002 naming the field", async () => {
    await db.prisma.shop.create({ data: { domain: "twice.myshopify.com", settings: "{}" } });
    const error = await db.prisma.shop
      .create({ data: { domain: "twice.myshopify.com", settings: "{}" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    expect((error as Prisma.PrismaClientKnownRequestError).code).toBe("P2002");
  });
});
