-- CreateTable
CREATE TABLE "AnalyticsLead" (
    "linkId" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "cityId" INTEGER NOT NULL,
    "productKeys" TEXT NOT NULL DEFAULT '[]',
    "statusGroup" TEXT,
    "totalCents" BIGINT NOT NULL DEFAULT 0,
    "profitCents" BIGINT NOT NULL DEFAULT 0,
    "deliveredDay" TEXT
);

-- CreateTable
CREATE TABLE "AnalyticsDaily" (
    "shop" TEXT NOT NULL,
    "grain" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "cityId" INTEGER NOT NULL,
    "productKey" TEXT NOT NULL,
    "statusGroup" TEXT NOT NULL,
    "deliveryDays" INTEGER NOT NULL,
    "orders" INTEGER NOT NULL DEFAULT 0,
    "totalCents" BIGINT NOT NULL DEFAULT 0,
    "profitCents" BIGINT NOT NULL DEFAULT 0,

    PRIMARY KEY ("shop", "grain", "day", "cityId", "productKey", "statusGroup", "deliveryDays")
);

-- CreateIndex
CREATE INDEX "AnalyticsLead_shop_idx" ON "AnalyticsLead"("shop");

