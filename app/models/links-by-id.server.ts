/**
 * A shop's order links among some ids. SQLite's planner has no statistics and
 * reads `shop = ? AND id IN (...)` through a shop-leading index, that is every
 * link of the shop, instead of the primary key: a status-sync batch of 10 ids
 * read 10,000 rows three times over. So the ids go to the primary key alone
 * and the shop is checked on the rows read: a link of another shop is never
 * returned, whatever ids a caller passes.
 */
import type { Prisma } from "@prisma/client";

type LinkReader = Pick<Prisma.TransactionClient, "orderLink">;

/** Ids per read: Prisma caps a query at 999 parameters on SQLite. */
const IDS_PER_READ = 500;

export async function shopLinksByIds<S extends Prisma.OrderLinkSelect>(
  db: LinkReader,
  shop: string,
  ids: readonly string[],
  select: S,
): Promise<Prisma.OrderLinkGetPayload<{ select: S }>[]> {
  const found: Prisma.OrderLinkGetPayload<{ select: S }>[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_READ) {
    const rows = (await db.orderLink.findMany({
      where: { id: { in: ids.slice(i, i + IDS_PER_READ) } },
      select: { ...select, shop: true } as Prisma.OrderLinkSelect,
    })) as unknown as (Prisma.OrderLinkGetPayload<{ select: S }> & { shop: string })[];
    for (const row of rows) if (row.shop === shop) found.push(row);
  }
  return found;
}

/** The ids among `ids` that are links of `shop`. */
export async function shopLinkIds(db: LinkReader, shop: string, ids: readonly string[]): Promise<Set<string>> {
  return new Set((await shopLinksByIds(db, shop, ids, { id: true })).map((l) => l.id));
}
