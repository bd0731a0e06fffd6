-- CreateTable
CREATE TABLE "OddsModel" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "model" TEXT NOT NULL,
    "fittedAt" DATETIME NOT NULL,
    "settled" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "OrderOdds" (
    "linkId" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "probability" REAL NOT NULL,
    "valueCents" INTEGER,
    "marginCents" INTEGER,
    "lossCents" INTEGER,
    "breakEven" REAL,
    "level" TEXT NOT NULL,
    "held" BOOLEAN NOT NULL DEFAULT false,
    "reasons" TEXT NOT NULL DEFAULT '[]',
    "modelFittedAt" DATETIME,
    "scoredAt" DATETIME NOT NULL,
    "assessedHash" TEXT,
    "assessedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "OrderOdds_shop_scoredAt_idx" ON "OrderOdds"("shop", "scoredAt");

