-- DropIndex
DROP INDEX "TimelineEvent_linkId_at_idx";

-- CreateIndex
CREATE INDEX "TimelineEvent_shop_linkId_at_idx" ON "TimelineEvent"("shop", "linkId", "at");

