-- AlterTable
ALTER TABLE "OrderLink" ADD COLUMN     "orderCreatedAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "triggeredAt" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "SyncLedger" (
    "shop" TEXT NOT NULL,
    "coverageFrom" TIMESTAMPTZ(3) NOT NULL,
    "uncoveredFrom" TIMESTAMPTZ(3),
    "watermark" TIMESTAMPTZ(3),
    "lastPassAt" TIMESTAMPTZ(3),
    "measuredUntil" TIMESTAMPTZ(3),
    "lastFailure" TEXT,
    "figures" TEXT NOT NULL DEFAULT '{}',

    CONSTRAINT "SyncLedger_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "ReconcilePass" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "scanned" INTEGER NOT NULL DEFAULT 0,
    "recovered" INTEGER NOT NULL DEFAULT 0,
    "cancelled" INTEGER NOT NULL DEFAULT 0,
    "updated" INTEGER NOT NULL DEFAULT 0,
    "rewritten" INTEGER NOT NULL DEFAULT 0,
    "orders" TEXT NOT NULL DEFAULT '[]',

    CONSTRAINT "ReconcilePass_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SyncLatency" (
    "shop" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "bucket" INTEGER NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SyncLatency_pkey" PRIMARY KEY ("shop","metric","hour","bucket")
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
