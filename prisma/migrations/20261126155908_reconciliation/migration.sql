-- AlterTable
ALTER TABLE "OrderLink" ADD COLUMN "orderCreatedAt" DATETIME;

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN "triggeredAt" DATETIME;

-- CreateTable
CREATE TABLE "SyncLedger" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "coverageFrom" DATETIME NOT NULL,
    "uncoveredFrom" DATETIME,
    "watermark" DATETIME,
    "lastPassAt" DATETIME,
    "measuredUntil" DATETIME,
    "lastFailure" TEXT,
    "figures" TEXT NOT NULL DEFAULT '{}'
);

-- CreateTable
CREATE TABLE "ReconcilePass" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "at" DATETIME NOT NULL,
    "scanned" INTEGER NOT NULL DEFAULT 0,
    "recovered" INTEGER NOT NULL DEFAULT 0,
    "cancelled" INTEGER NOT NULL DEFAULT 0,
    "updated" INTEGER NOT NULL DEFAULT 0,
    "rewritten" INTEGER NOT NULL DEFAULT 0,
    "orders" TEXT NOT NULL DEFAULT '[]'
);

-- CreateTable
CREATE TABLE "SyncLatency" (
    "shop" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "hour" DATETIME NOT NULL,
    "bucket" INTEGER NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("shop", "metric", "hour", "bucket")
);

-- CreateIndex
CREATE INDEX "ReconcilePass_shop_at_idx" ON "ReconcilePass"("shop", "at");

-- CreateIndex
CREATE INDEX "OrderLink_shop_orderCreatedAt_idx" ON "OrderLink"("shop", "orderCreatedAt");

-- CreateIndex
CREATE INDEX "OrderLink_shop_postedAt_idx" ON "OrderLink"("shop", "postedAt");


-- Links stored before this column: their arrival time stands for the order's own (webhooks
-- arrive seconds after the order; the sync ledger reads a week of them at most).
UPDATE "OrderLink" SET "orderCreatedAt" = "createdAt" WHERE "orderCreatedAt" IS NULL;
