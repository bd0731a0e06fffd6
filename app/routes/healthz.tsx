import { healthAnswer } from "../pages/probes-endpoint.server";

// Unauthenticated liveness + readiness probe: the app is healthy when its database answers.
export const loader = () => healthAnswer();
