/**
 * Where a demo run keeps its database: shared by the demo, which makes it, and by the operator
 * commands that read a demo's history (odds:evaluate --shop with no DATABASE_URL).
 */
import { join } from "node:path";

/** The demo's database on its embedded server. */
export const DEMO_DATABASE = "cod_lead_sync_demo";

/** Where the embedded server keeps its data, under the demo's data folder. */
export const postgresFolder = (dataDir: string) => join(dataDir, "postgres");
