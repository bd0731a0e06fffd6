-- AlterTable
ALTER TABLE "OrderLink" ADD COLUMN     "reasonText" TEXT;

-- AlterTable
ALTER TABLE "TimelineEvent" ADD COLUMN     "text" TEXT;

