-- CreateIndex
CREATE INDEX "OrderLink_orderId_idx" ON "OrderLink"("orderId");

