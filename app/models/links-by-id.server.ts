/**
 * A shop's order links among some ids: the ids go to the primary key alone and
 * the shop is checked on the rows read, so a link of another shop is never
 * returned, whatever ids a caller passes.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "../db.server";

type LinkReader = Pick<Prisma.TransactionClient, "orderLink">;

/** Ids per read: pages keep each statement's parameter list bounded. */
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

/**
 * Every link of a shop, in pages of `pageSize` in the (shop, orderId) index's order (on id, each
 * page would sort all the shop's links), for the rebuilds: each page is locked first (a no-op
 * update) and read again in one transaction with `visit`, so a change of one of them waits for
 * the page and its handler reads what the rebuild wrote. Locked by id alone: the ids were just
 * read for this shop. Answers how many links were visited.
 */
export async function forEachLockedLinkPage<S extends Prisma.OrderLinkSelect>(
  db: Db,
  shop: string,
  pageSize: number,
  select: S,
  visit: (tx: Prisma.TransactionClient, links: Prisma.OrderLinkGetPayload<{ select: S }>[]) => Promise<void>,
): Promise<number> {
  let visited = 0;
  let cursor: string | undefined;
  for (;;) {
    const page = await db.orderLink.findMany({
      where: { shop, ...(cursor ? { orderId: { gt: cursor } } : {}) },
      select: { id: true, orderId: true },
      orderBy: { orderId: "asc" },
      take: pageSize,
    });
    if (page.length === 0) return visited;
    const ids = page.map((l) => l.id);
    cursor = page[page.length - 1].orderId;
    await db.$transaction(async (tx: Prisma.TransactionClient) => {
      await tx.$executeRaw`UPDATE "OrderLink" SET "shop" = "shop" WHERE "id" IN (${Prisma.join(ids)})`;
      const links = await shopLinksByIds(tx, shop, ids, select);
      await visit(tx, links);
      visited += links.length;
    });
  }
}
