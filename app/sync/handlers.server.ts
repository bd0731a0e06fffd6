/** The worker's handlers wired to the app's own database client. */
import prisma from "../db.server";
import type { JobHandlers } from "../queue/types";
import { createJobHandlers } from "./job-handlers.server";
import { createPipelineDeps } from "./pipeline-deps.server";

// Operational knobs (defaults in seller-connection.server.ts), read once per process.
const timeoutMs = Number(process.env.SELLER_API_TIMEOUT_MS) || undefined;
const rateRefreshMs = Number(process.env.SELLER_API_RATE_REFRESH_MS) || undefined;

export const jobHandlers: JobHandlers = createJobHandlers(createPipelineDeps(prisma, { timeoutMs, rateRefreshMs }));
