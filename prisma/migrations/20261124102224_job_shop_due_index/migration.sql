-- DropIndex
DROP INDEX "Job_shop_state_idx";

-- CreateTable
CREATE TABLE "QueueTurn" (
    "shop" TEXT NOT NULL,
    "lastServedMs" DOUBLE PRECISION NOT NULL DEFAULT 0,

    CONSTRAINT "QueueTurn_pkey" PRIMARY KEY ("shop")
);

-- CreateIndex
CREATE INDEX "QueueTurn_lastServedMs_idx" ON "QueueTurn"("lastServedMs");

-- CreateIndex
CREATE INDEX "Job_shop_state_runAt_idx" ON "Job"("shop", "state", "runAt");

