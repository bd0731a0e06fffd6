-- AlterTable
ALTER TABLE "OrderLink" ADD COLUMN     "importedAt" TIMESTAMPTZ(3),
ADD COLUMN     "mismatch" TEXT;

-- CreateIndex
CREATE INDEX "OrderLink_shop_mismatch_statusFinal_idx" ON "OrderLink"("shop", "mismatch", "statusFinal");


-- Sent orders cancelled in Shopify before this column existed: their lead may still ship.
UPDATE "OrderLink" SET "mismatch" = 'cancelled' WHERE "cancelledAt" IS NOT NULL AND "state" IN ('created', 'damaged');
