-- CreateTable
CREATE TABLE "OddsModel" (
    "shop" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "fittedAt" TIMESTAMPTZ(3) NOT NULL,
    "settled" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "OddsModel_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "OrderOdds" (
    "linkId" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "probability" DOUBLE PRECISION NOT NULL,
    "valueCents" INTEGER,
    "marginCents" INTEGER,
    "lossCents" INTEGER,
    "breakEven" DOUBLE PRECISION,
    "level" TEXT NOT NULL,
    "held" BOOLEAN NOT NULL DEFAULT false,
    "reasons" TEXT NOT NULL DEFAULT '[]',
    "modelFittedAt" TIMESTAMPTZ(3),
    "scoredAt" TIMESTAMPTZ(3) NOT NULL,
    "assessedHash" TEXT,
    "assessedAt" TIMESTAMPTZ(3),

    CONSTRAINT "OrderOdds_pkey" PRIMARY KEY ("linkId")
);

-- CreateIndex
CREATE INDEX "OrderOdds_shop_scoredAt_idx" ON "OrderOdds"("shop", "scoredAt");

