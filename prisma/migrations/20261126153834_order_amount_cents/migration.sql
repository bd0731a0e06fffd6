-- The amount to collect in integer cents, for Home's sums and the Orders list's sort by amount.
ALTER TABLE "OrderLink" ADD COLUMN "totalCents" INTEGER NOT NULL DEFAULT 0;
-- Clamped to a 32-bit integer (PostgreSQL INTEGER): no COD order comes near it.
UPDATE "OrderLink" SET "totalCents" = MAX(0, MIN(2147483647, CAST(ROUND(CAST("totalClient" AS REAL) * 100) AS INTEGER))) WHERE "totalClient" IS NOT NULL;

-- DropIndex
DROP INDEX "OrderLink_shop_state_updatedAt_idx";

-- CreateIndex
CREATE INDEX "OrderLink_shop_state_updatedAt_cancelledAt_createdAt_totalCents_idx" ON "OrderLink"("shop", "state", "updatedAt", "cancelledAt", "createdAt", "totalCents");

-- CreateIndex
CREATE INDEX "OrderLink_shop_totalCents_id_idx" ON "OrderLink"("shop", "totalCents", "id");
