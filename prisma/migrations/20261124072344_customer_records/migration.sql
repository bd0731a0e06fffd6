-- CreateTable
CREATE TABLE "CustomerLead" (
    "linkId" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "phoneKey" TEXT NOT NULL,
    "customerId" TEXT,
    "orderName" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "outcomeAt" DATETIME NOT NULL,
    "amountCents" INTEGER NOT NULL DEFAULT 0,
    "orderedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "CustomerRecord" (
    "shop" TEXT NOT NULL,
    "phoneKey" TEXT NOT NULL,
    "customerId" TEXT,
    "orders" INTEGER NOT NULL DEFAULT 0,
    "delivered" INTEGER NOT NULL DEFAULT 0,
    "returned" INTEGER NOT NULL DEFAULT 0,
    "refused" INTEGER NOT NULL DEFAULT 0,
    "cancelled" INTEGER NOT NULL DEFAULT 0,
    "wrongNumber" INTEGER NOT NULL DEFAULT 0,
    "inProgress" INTEGER NOT NULL DEFAULT 0,
    "lastOutcome" TEXT,
    "lastOutcomeAt" DATETIME,
    "collectedCents" BIGINT NOT NULL DEFAULT 0,
    "firstOrderAt" DATETIME,
    "lastOrderAt" DATETIME,
    "standing" TEXT,

    PRIMARY KEY ("shop", "phoneKey")
);

-- CreateIndex
CREATE INDEX "CustomerLead_shop_phoneKey_outcomeAt_idx" ON "CustomerLead"("shop", "phoneKey", "outcomeAt");

-- CreateIndex
CREATE INDEX "CustomerRecord_shop_customerId_idx" ON "CustomerRecord"("shop", "customerId");

