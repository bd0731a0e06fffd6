/** The worker's handlers wired to the app's own database client. */
import prisma from "../db.server";
import type { JobHandlers } from "../queue/types";
import { createJobHandlers } from "./job-handlers.server";
import { createPipelineDeps } from "./pipeline-deps.server";

const timeoutMs = Number(process.env.SELLER_API_TIMEOUT_MS) || undefined;

export const jobHandlers: JobHandlers = createJobHandlers(createPipelineDeps(prisma, { timeoutMs }));
