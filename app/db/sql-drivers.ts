/**
 * The prepared drivers behind app/db/sql: SQLite on the process's one
 * connection (sqlite-connection.ts keeps each statement prepared), shared with
 * Prisma's adapter through the connection's gate; PostgreSQL on the pool Prisma
 * uses too, with named prepared statements (each connection prepares a text once).
 */
import type pg from "pg";
import type { ConnectionGate } from "./connection-gate";
import type { SqliteResult, SqliteStatement } from "./sqlite-connection";
import {
  asNumber,
  combined,
  runInTurn,
  toParam,
  type BatchItem,
  type Row,
  type Sql,
  type SqlDatabase,
  type SqlStatement,
} from "./sql";

/** What app/db/client.ts gives the SQLite driver: the connection's executor that skips the gate, the gate, and its transaction marks. */
export interface SqliteAccess {
  execute(statement: SqliteStatement): Promise<SqliteResult>;
  gate: ConnectionGate;
  /** Tells the statement slicer a transaction is open (see client.ts). */
  setInTransaction(open: boolean): void;
}

function rowsOf<R>(result: SqliteResult): R[] {
  const { columns, rows } = result;
  const out = new Array<R>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row: Row = {};
    const values = rows[i];
    for (let c = 0; c < columns.length; c++) row[columns[c]] = values[c];
    out[i] = row as R;
  }
  return out;
}

export function sqliteDatabase(access: () => SqliteAccess): SqlDatabase {
  const args = (params: readonly unknown[]) => params.map((p) => toParam("sqlite", p));
  const inside: Sql = {
    dialect: "sqlite",
    all: async <R extends Row>(s: SqlStatement, params: readonly unknown[] = []) =>
      rowsOf<R>(await access().execute({ sql: s.sqlite, args: args(params) })),
    run: async (s: SqlStatement, params: readonly unknown[] = []) =>
      (await access().execute({ sql: s.sqlite, args: args(params) })).rowsAffected,
    batch: (items) => runInTurn(inside, items),
  };
  const database: SqlDatabase = {
    dialect: "sqlite",
    all: (s, params) => access().gate.hold(() => inside.all(s, params)),
    run: (s, params) => access().gate.hold(() => inside.run(s, params)),
    batch: (items) => database.transaction((tx) => tx.batch(items)),
    async transaction(work) {
      const connection = access();
      return connection.gate.hold(async () => {
        await connection.execute({ sql: "BEGIN IMMEDIATE" });
        connection.setInTransaction(true);
        try {
          const result = await work(inside);
          await connection.execute({ sql: "COMMIT" });
          return result;
        } catch (error) {
          await connection.execute({ sql: "ROLLBACK" }).catch(() => {});
          throw error;
        } finally {
          connection.setInTransaction(false);
        }
      });
    },
  };
  return database;
}

type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

function postgresRunner(client: Queryable): Sql {
  const query = (s: SqlStatement, params: readonly unknown[]) =>
    client.query({ name: s.name, text: s.postgres, values: params.map((p) => toParam("postgres", p)) });
  const runner: Sql = {
    dialect: "postgres",
    all: async <R extends Row>(s: SqlStatement, params: readonly unknown[] = []) =>
      (await query(s, params)).rows as R[],
    run: async (s: SqlStatement, params: readonly unknown[] = []) => (await query(s, params)).rowCount ?? 0,
    async batch(items: readonly BatchItem[]) {
      if (items.length === 1) return [await runner.run(items[0].statement, items[0].params)];
      const [row] = (
        await query(
          combined(items),
          items.flatMap((i) => i.params),
        )
      ).rows as Row[];
      return items.map((_, i) => asNumber(row[`n${i}`]));
    },
  };
  return runner;
}

export function postgresDatabase(pool: pg.Pool): SqlDatabase {
  return {
    ...postgresRunner(pool),
    async transaction(work) {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query("BEGIN");
        const result = await work(postgresRunner(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => void (broken = true));
        throw error;
      } finally {
        // A connection that could not roll back is closed, not handed to the next caller.
        client.release(broken);
      }
    },
  };
}
