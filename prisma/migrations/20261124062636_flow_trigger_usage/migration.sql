-- CreateTable
CREATE TABLE "FlowTriggerUsage" (
    "shop" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "hasEnabledFlow" BOOLEAN NOT NULL,
    "notifiedAt" DATETIME NOT NULL,

    PRIMARY KEY ("shop", "handle")
);

