/**
 * Derives the PostgreSQL data model from prisma/schema.prisma, the one source of
 * truth. Prisma bakes the provider into the generated client, so PostgreSQL needs
 * a schema (and a client) of its own; writing it by hand would let the two drift.
 *
 * What changes:
 * - the datasource provider, and the client's output path (node_modules/.prisma/client-pg);
 * - every DateTime column becomes `timestamptz(3)`: an instant, whatever the
 *   session's time zone, with the millisecond precision JavaScript dates have.
 *
 * What does not: the JSON-carrying String columns (payload, settings, findings...)
 * stay `text`. The app reads and writes them whole and never queries inside them,
 * so jsonb would cost a parse per write and change nothing a query sees; as
 * Prisma's `Json` type they would also give the two clients different TypeScript
 * types, and the app is written against one.
 */

export const POSTGRES_CLIENT_OUTPUT = "../../node_modules/.prisma/client-pg";

const HEADER = `// GENERATED from prisma/schema.prisma by scripts/dev/postgres-schema.ts: do not edit.
// Run \`npm run db:postgres-schema\` (postinstall does) after changing prisma/schema.prisma.
`;

/** `name  DateTime?  @default(now())` → the same with `@db.Timestamptz(3)` before any comment. */
function withTimestamptz(line: string): string {
  const match = /^(\s*\w+\s+DateTime\??)(\s.*?)?(\s*\/\/.*)?$/.exec(line);
  if (!match) return line;
  const [, field, attributes = "", comment = ""] = match;
  if (attributes.includes("@db.")) return line;
  return `${field}${attributes.trimEnd()} @db.Timestamptz(3)${comment}`;
}

export function postgresSchema(sqliteSchema: string): string {
  const out: string[] = [];
  type Block = "generator" | "datasource" | "model";
  let block: Block | null = null;
  for (const line of sqliteSchema.split("\n")) {
    const opening = /^(generator|datasource|model)\s+\w+\s*\{/.exec(line);
    if (opening) {
      block = opening[1] as Block;
      out.push(line);
      if (block === "generator") out.push(`  output     = "${POSTGRES_CLIENT_OUTPUT}"`);
      continue;
    }
    if (/^\}/.test(line)) block = null;
    if (block === "generator" && /^\s*output\s*=/.test(line)) continue;
    if (block === "datasource" && /^\s*provider\s*=/.test(line)) {
      out.push(line.replace(/"sqlite"/, '"postgresql"'));
      continue;
    }
    if (block === "datasource" && /^\s*\/\//.test(line)) continue;
    out.push(block === "model" ? withTimestamptz(line) : line);
  }
  return HEADER + out.join("\n");
}
