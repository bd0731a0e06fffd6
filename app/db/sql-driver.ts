/**
 * The prepared driver behind app/db/sql: PostgreSQL on the pool Prisma uses
 * too, with named prepared statements (each connection prepares a text once).
 */
import type pg from "pg";
import {
  asNumber,
  combined,
  values,
  type BatchItem,
  type Row,
  type Sql,
  type SqlDatabase,
  type SqlStatement,
} from "./sql";

type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

function postgresRunner(client: Queryable): Sql {
  const query = (s: SqlStatement, params: readonly unknown[]) =>
    client.query({ name: s.name, text: s.text, values: values(params) });
  const runner: Sql = {
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
