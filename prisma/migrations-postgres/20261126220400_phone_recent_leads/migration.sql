-- DropIndex
DROP INDEX "OrderLink_shop_phone_idx";

-- CreateIndex
CREATE INDEX "OrderLink_shop_phone_postedAt_idx" ON "OrderLink"("shop", "phone", "postedAt");

