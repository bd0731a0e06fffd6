/**
 * The life of one Shopify order's link to its lead: every state and every
 * legal move between them, in one place.
 *
 *   received ──map──▶ held | skipped | cancelled | posting
 *   posting ──answer──▶ created | damaged | invalid | retrying
 *   retrying ──▶ posting | held | cancelled | failed
 *   held | invalid | failed | skipped ──fix / update / retry──▶ received
 *   created | damaged ──merchant resend after a fix──▶ received
 */
export const LINK_STATES = [
  "received",
  "held",
  "skipped",
  "posting",
  "created",
  "damaged",
  "invalid",
  "retrying",
  "failed",
  "cancelled",
] as const;

export type LinkState = (typeof LINK_STATES)[number];

const MOVES: Record<LinkState, readonly LinkState[]> = {
  // Mapped and sent, held, skipped, waiting (key, rate limit), or found already posted.
  received: [
    "received",
    "held",
    "skipped",
    "cancelled",
    "posting",
    "retrying",
    "invalid",
    "failed",
    "created",
    "damaged",
  ],
  held: ["received", "held", "skipped", "cancelled"],
  skipped: ["received", "skipped", "cancelled"],
  // The answer, a refusal, a wait, or an unknown outcome kept as posting.
  posting: ["posting", "created", "damaged", "invalid", "retrying", "held", "skipped", "failed"],
  created: ["received"],
  damaged: ["received"],
  invalid: ["received", "cancelled", "held"],
  retrying: [
    "received",
    "posting",
    "held",
    "skipped",
    "cancelled",
    "failed",
    "retrying",
    "invalid",
    "created",
    "damaged",
  ],
  failed: ["received", "cancelled"],
  cancelled: ["received"],
};

export class IllegalLinkTransitionError extends Error {
  constructor(
    readonly from: LinkState,
    readonly to: LinkState,
  ) {
    super(`an order link cannot go from ${from} to ${to}`);
    this.name = "IllegalLinkTransitionError";
  }
}

export function canMove(from: LinkState, to: LinkState): boolean {
  return MOVES[from]?.includes(to) ?? false;
}

export function assertMove(from: LinkState, to: LinkState): void {
  if (!canMove(from, to)) throw new IllegalLinkTransitionError(from, to);
}

/** The states in which a lead exists on the platform for this order. */
export const POSTED_STATES: readonly LinkState[] = ["created", "damaged"];

/** A lead exists on the platform for this order. */
export function isPosted(state: LinkState): boolean {
  return POSTED_STATES.includes(state);
}

/** Not yet posted and still to be worked on: an update from Shopify is taken into account. */
export function acceptsOrderUpdates(state: LinkState): boolean {
  return (
    state === "received" ||
    state === "held" ||
    state === "invalid" ||
    state === "retrying" ||
    state === "skipped" ||
    state === "failed"
  );
}

export function isLinkState(value: string): value is LinkState {
  return (LINK_STATES as readonly string[]).includes(value);
}

/** Flag on a link whose lead may be a second one (re-posted after an unknown outcome). */
export const FLAG_DUPLICATE_AFTER_NETWORK_FAILURE = "possible_duplicate_after_network_failure";
