-- AlterTable
ALTER TABLE "OrderOdds" ADD COLUMN     "releasedAt" TIMESTAMPTZ(3);

