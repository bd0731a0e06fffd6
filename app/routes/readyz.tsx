import prisma from "../db.server";
import { readinessResponse } from "../runtime/readiness.server";

// Unauthenticated readiness probe for load balancers and deploys: 200 when this process can
// serve (database answers, its schema is this build's, its in-process worker claims jobs), else
// 503; the body says which check failed (never a driver message). /healthz stays the cheap liveness.
export const loader = () => readinessResponse(prisma);
