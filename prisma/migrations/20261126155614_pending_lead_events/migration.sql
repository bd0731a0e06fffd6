-- CreateTable
CREATE TABLE "PendingLeadEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "linkId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "at" DATETIME NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0
);

-- CreateIndex
CREATE INDEX "PendingLeadEvent_shop_id_idx" ON "PendingLeadEvent"("shop", "id");

