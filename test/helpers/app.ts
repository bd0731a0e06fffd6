/**
 * Loads the app's server modules against a fresh database for this test file.
 * Modules read DATABASE_URL when first imported, so it is set before the
 * dynamic imports.
 */
import { createTestDatabase, type TestDatabase } from "./db";

export async function useTestDatabaseForApp(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  return database;
}
