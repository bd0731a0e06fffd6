/** Which of the demo's orders the customer hold kept back, and why (in English), from the app's rows. */
import type { PrismaClient } from "@prisma/client";
import { holdReasonViewText } from "../../../app/customers/hold-reason";
import { customerHoldReasons } from "../../../app/customers/hold-reasons.server";
import { t } from "../../../app/i18n";

export async function readCustomerHolds(
  db: PrismaClient,
  shop: string,
  orderIds: readonly string[],
): Promise<Map<string, string>> {
  const held = await db.orderLink.findMany({
    where: { shop, orderId: { in: [...orderIds] }, state: "held" },
    select: { id: true, orderId: true },
  });
  const reasons = await customerHoldReasons(
    db,
    shop,
    held.map((l) => l.id),
  );
  const out = new Map<string, string>();
  for (const link of held) {
    const reason = reasons.get(link.id);
    if (reason)
      out.set(
        link.orderId,
        holdReasonViewText((key, params) => t("en", key, params), reason),
      );
  }
  return out;
}
