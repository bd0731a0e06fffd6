/**
 * Autopilot: accepted leads live realistic lifecycles on the sandbox clock, so a demo
 * shows movement and tests can drive it with POST /_sandbox/clock. Each lead's plan is
 * drawn from a PRNG seeded by its id, so the same run gives the same story.
 */
import type { SandboxClock } from "./clock";
import { NotFoundError, TransitionError } from "./errors";
import type { AdvanceRequest, SandboxStore, StoredLead } from "./store";

export interface PlannedStep {
  /** seconds after the previous step (or after acceptance, for the first) */
  afterSeconds: number;
  change: AdvanceRequest;
}

/** Small deterministic PRNG (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const minutes = (random: () => number, min: number, max: number) => Math.round((min + random() * (max - min)) * 60);

/**
 * Outcome shares: 62 % delivered and paid (a fifth of them after a missed call or a
 * call-back), 10 % returned, 3 % canceled after pickup, 9 % three missed calls then
 * canceled, 8 % canceled on the phone, 5 % fake, 3 % wrong number. The platform pays
 * seven delivered parcels in ten within minutes and the others 1 to 4 days later, so
 * a demo always shows money owed by the platform.
 */
export function planLifecycle(random: () => number): PlannedStep[] {
  const step = (min: number, max: number, change: AdvanceRequest): PlannedStep => ({
    afterSeconds: minutes(random, min, max),
    change,
  });
  const call = (change: AdvanceRequest) => step(0.5, 3, change);
  const shipped = [step(1, 5, { shipping_status: "picked_up" }), step(2, 8, { shipping_status: "shipped" })];
  const roll = random() * 100;
  if (roll < 62) {
    const hesitation =
      random() < 0.2 ? [call({ confirmation_status: random() < 0.5 ? "no_answer_1" : "callback" })] : [];
    return [
      ...hesitation,
      call({ confirmation_status: "confirmed" }),
      ...shipped,
      step(3, 12, { shipping_status: "delivered" }),
      random() < 0.7
        ? step(3, 15, { shipping_status: "paid" })
        : step(24 * 60, 4 * 24 * 60, { shipping_status: "paid" }),
    ];
  }
  if (roll < 72)
    return [call({ confirmation_status: "confirmed" }), ...shipped, step(3, 12, { shipping_status: "returned" })];
  if (roll < 75)
    return [call({ confirmation_status: "confirmed" }), shipped[0], step(1, 5, { shipping_status: "canceled" })];
  if (roll < 84) {
    return [
      call({ confirmation_status: "no_answer_1" }),
      step(1, 5, { confirmation_status: "no_answer_2" }),
      step(1, 5, { confirmation_status: "no_answer_3" }),
      step(1, 5, { confirmation_status: "canceled" }),
    ];
  }
  if (roll < 92) return [call({ confirmation_status: "canceled" })];
  if (roll < 97) return [call({ confirmation_status: "fake" })];
  return [call({ confirmation_status: "wrong" })];
}

interface Plan {
  steps: PlannedStep[];
  next: number;
  nextAtMs: number;
}

export interface Autopilot {
  /** apply every step due at the sandbox clock's current time */
  tick(): void;
  clear(): void;
  stop(): void;
}

export function createAutopilot(
  store: SandboxStore,
  clock: SandboxClock,
  options: { tickMs?: number } = {},
): Autopilot {
  const plans = new Map<string, Plan>();

  store.onAccepted((lead: StoredLead) => {
    if (!store.config.autopilot) return;
    const steps = planLifecycle(seededRandom(lead.id));
    plans.set(lead.ref, { steps, next: 0, nextAtMs: Date.parse(lead.updated_at) + steps[0].afterSeconds * 1000 });
  });

  function tick(): void {
    const now = clock.now();
    for (const [ref, plan] of plans) {
      while (plan.next < plan.steps.length && plan.nextAtMs <= now) {
        try {
          // Each change is dated when it was due, even when a clock jump applies several at once.
          store.advance(ref, plan.steps[plan.next].change, plan.nextAtMs);
        } catch (err) {
          // Someone moved the lead by hand (control API) or reset: the plan no longer applies.
          if (!(err instanceof TransitionError) && !(err instanceof NotFoundError)) throw err;
          plan.next = plan.steps.length;
          break;
        }
        plan.next++;
        if (plan.next < plan.steps.length) plan.nextAtMs += plan.steps[plan.next].afterSeconds * 1000;
      }
      if (plan.next >= plan.steps.length) plans.delete(ref);
    }
  }

  const interval = setInterval(tick, options.tickMs ?? 1000);
  interval.unref();
  const unsubscribe = clock.onAdvance(tick);
  return {
    tick,
    clear: () => plans.clear(),
    stop() {
      clearInterval(interval);
      unsubscribe();
      plans.clear();
    },
  };
}
