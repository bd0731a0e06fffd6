-- CreateTable
CREATE TABLE "CashParcel" (
    "linkId" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "leadRef" TEXT,
    "state" TEXT,
    "day" TEXT,
    "deliveredDay" TEXT,
    "paidDay" TEXT,
    "returnedDay" TEXT,
    "totalCents" BIGINT NOT NULL DEFAULT 0,
    "profitCents" BIGINT,
    "overdueNotifiedAt" TIMESTAMPTZ(3),

    CONSTRAINT "CashParcel_pkey" PRIMARY KEY ("linkId")
);

-- CreateTable
CREATE TABLE "CashDaily" (
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "deliveredDay" TEXT NOT NULL,
    "parcels" INTEGER NOT NULL DEFAULT 0,
    "totalCents" BIGINT NOT NULL DEFAULT 0,
    "profitCents" BIGINT NOT NULL DEFAULT 0,
    "unknownProfit" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "CashDaily_pkey" PRIMARY KEY ("shop","state","day","deliveredDay")
);

-- CreateIndex
CREATE INDEX "CashParcel_shop_state_day_linkId_idx" ON "CashParcel"("shop", "state", "day", "linkId");

