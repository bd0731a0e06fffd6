-- CreateTable
CREATE TABLE "QueueTurn" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "lastServedMs" REAL NOT NULL DEFAULT 0
);

-- CreateIndex
CREATE INDEX "QueueTurn_lastServedMs_idx" ON "QueueTurn"("lastServedMs");

