import type { LoaderFunctionArgs } from "@remix-run/node";
import { readinessAnswer } from "../pages/probes-endpoint.server";

// Unauthenticated readiness probe for load balancers and deploys: 200 {"ready":true} when this process
// can serve (database answers, its schema is this build's, its in-process worker claims jobs), else 503
// {"ready":false}. Which check failed is the operator's: the whole report goes only to server.ts's
// metrics listener, which asks with a load context no client can give.
export const loader = ({ context }: LoaderFunctionArgs) =>
  readinessAnswer((context as { readinessReport?: boolean }).readinessReport === true);
