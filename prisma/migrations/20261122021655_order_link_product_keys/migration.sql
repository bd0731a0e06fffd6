-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_OrderLink" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "payloadAt" DATETIME,
    "customerId" TEXT,
    "state" TEXT NOT NULL DEFAULT 'received',
    "reason" TEXT,
    "findings" TEXT NOT NULL DEFAULT '[]',
    "anomalies" TEXT NOT NULL DEFAULT '[]',
    "leadJson" TEXT,
    "leadRef" TEXT,
    "externalRef" TEXT NOT NULL,
    "phone" TEXT,
    "cityId" INTEGER,
    "totalClient" TEXT,
    "productKeys" TEXT NOT NULL DEFAULT '[]',
    "overrides" TEXT NOT NULL DEFAULT '{}',
    "flags" TEXT NOT NULL DEFAULT '[]',
    "confirmationStatus" TEXT,
    "shippingStatus" TEXT,
    "trackingNumber" TEXT,
    "sellerProfit" TEXT,
    "statusFinal" BOOLEAN NOT NULL DEFAULT false,
    "statusCheckedAt" DATETIME,
    "postingSince" DATETIME,
    "postedAt" DATETIME,
    "postCount" INTEGER NOT NULL DEFAULT 0,
    "resendBy" TEXT,
    "resendAt" DATETIME,
    "cancelledAt" DATETIME,
    "writtenBack" TEXT NOT NULL DEFAULT '{}',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_OrderLink" ("anomalies", "cancelledAt", "cityId", "confirmationStatus", "createdAt", "customerId", "externalRef", "findings", "flags", "id", "leadJson", "leadRef", "orderId", "orderName", "overrides", "payload", "payloadAt", "phone", "postCount", "postedAt", "postingSince", "reason", "resendAt", "resendBy", "sellerProfit", "shippingStatus", "shop", "state", "statusCheckedAt", "statusFinal", "totalClient", "trackingNumber", "updatedAt", "writtenBack") SELECT "anomalies", "cancelledAt", "cityId", "confirmationStatus", "createdAt", "customerId", "externalRef", "findings", "flags", "id", "leadJson", "leadRef", "orderId", "orderName", "overrides", "payload", "payloadAt", "phone", "postCount", "postedAt", "postingSince", "reason", "resendAt", "resendBy", "sellerProfit", "shippingStatus", "shop", "state", "statusCheckedAt", "statusFinal", "totalClient", "trackingNumber", "updatedAt", "writtenBack" FROM "OrderLink";
DROP TABLE "OrderLink";
ALTER TABLE "new_OrderLink" RENAME TO "OrderLink";
CREATE INDEX "OrderLink_shop_createdAt_idx" ON "OrderLink"("shop", "createdAt");
CREATE INDEX "OrderLink_shop_state_updatedAt_idx" ON "OrderLink"("shop", "state", "updatedAt");
CREATE INDEX "OrderLink_shop_leadRef_idx" ON "OrderLink"("shop", "leadRef");
CREATE INDEX "OrderLink_shop_phone_idx" ON "OrderLink"("shop", "phone");
CREATE INDEX "OrderLink_shop_orderName_idx" ON "OrderLink"("shop", "orderName");
CREATE INDEX "OrderLink_shop_statusFinal_leadRef_idx" ON "OrderLink"("shop", "statusFinal", "leadRef");
CREATE UNIQUE INDEX "OrderLink_shop_orderId_key" ON "OrderLink"("shop", "orderId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

