-- DropIndex
DROP INDEX "OrderLink_shop_state_updatedAt_idx";

-- AlterTable
ALTER TABLE "OrderLink" ADD COLUMN     "totalCents" INTEGER NOT NULL DEFAULT 0;
-- The amount to collect in integer cents, from the stored decimal text (only well-formed amounts), clamped to INTEGER.
UPDATE "OrderLink" SET "totalCents" = GREATEST(0, LEAST(2147483647, ROUND(CAST("totalClient" AS NUMERIC) * 100)))::INTEGER WHERE "totalClient" ~ '^-?[0-9]{1,12}(\.[0-9]+)?$';

-- CreateIndex
CREATE INDEX "OrderLink_shop_state_updatedAt_cancelledAt_createdAt_totalC_idx" ON "OrderLink"("shop", "state", "updatedAt", "cancelledAt", "createdAt", "totalCents");

-- CreateIndex
CREATE INDEX "OrderLink_shop_totalCents_id_idx" ON "OrderLink"("shop", "totalCents", "id");

