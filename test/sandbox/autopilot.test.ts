import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planLifecycle, seededRandom } from "../../sandbox/autopilot";
import { confirmationRefusal, shippingRefusal, type LeadStatus } from "../../sandbox/lifecycle";
import { type DetailBody, useSandbox, uniquePhone, validLead } from "./helpers";

// Fixed so a run is repeatable; fast-check prints the seed (and the path) of any failure.
// FAST_CHECK_SEED=<n> explores other inputs.
const SEED = Number(process.env.FAST_CHECK_SEED) || 20261124;

const sb = useSandbox({ autopilot: true });

async function createLeads(n: number): Promise<string[]> {
  await sb.control.config({ rate_limit_per_minute: 100_000 });
  const refs: string[] = [];
  for (let i = 0; i < n; i++)
    refs.push((await sb.createLead(validLead({ customer_phone: uniquePhone() }))).body.data.ref);
  return refs;
}

describe("autopilot on the sandbox clock", () => {
  it("GIVEN accepted leads WHEN no sandbox time passes THEN nothing moves", async () => {
    const [ref] = await createLeads(1);
    await sb.control.clock(0);
    expect((await sb.call<DetailBody>("GET", `/v1/leads/${ref}`)).body.data.confirmation_status).toBe("new");
  });

  it("WHEN hours pass THEN leads live realistic lifecycles: mostly delivered and paid, some no answer, canceled, fake, returned", async () => {
    const refs = await createLeads(200);
    await sb.control.clock(29);
    expect((await sb.control.leads()).every((l) => l.confirmation_status === "new")).toBe(true); // the first call comes 30 s after creation at the earliest

    await sb.control.clock(6 * 3600);
    const hours = await sb.control.leads();
    // After six hours most delivered parcels are paid, and some still wait for the platform's payment (days).
    expect(hours.filter((l) => l.shipping_status === "paid").length).toBeGreaterThan(60);
    expect(hours.filter((l) => l.shipping_status === "delivered").length).toBeGreaterThan(15);
    expect(hours.filter((l) => l.shipping_status === "delivered").every((l) => l.seller_profit === "84.00")).toBe(true);

    await sb.control.clock(4 * 24 * 3600);
    const leads = await sb.control.leads();
    expect(leads.map((l) => l.ref)).toEqual(refs);
    const count = (pred: (l: (typeof leads)[number]) => boolean) => leads.filter(pred).length;
    const paid = count((l) => l.shipping_status === "paid");
    expect(paid).toBeGreaterThan(100);
    expect(count((l) => l.shipping_status === "returned")).toBeGreaterThan(5);
    expect(count((l) => l.confirmation_status === "canceled")).toBeGreaterThan(10);
    expect(count((l) => l.confirmation_status === "fake")).toBeGreaterThan(2);
    // every lead reached an end: nobody is stuck half-way
    const open = leads.filter(
      (l) =>
        !["canceled", "wrong", "fake", "duplicate"].includes(l.confirmation_status) &&
        !["paid", "returned", "canceled"].includes(l.shipping_status),
    );
    expect(open).toEqual([]);
    for (const l of leads.filter((x) => x.shipping_status === "paid")) {
      expect(l.tracking_number).not.toBeNull();
      expect(l.seller_profit).toBe("84.00"); // 149.00 - 45.00 - 20.00
    }
  });

  it("moves in steps: after a few minutes some leads are called, none delivered yet", async () => {
    await createLeads(50);
    await sb.control.clock(3 * 60);
    const leads = await sb.control.leads();
    expect(leads.some((l) => l.confirmation_status !== "new")).toBe(true);
    expect(leads.some((l) => l.shipping_status === "delivered" || l.shipping_status === "paid")).toBe(false);
  });

  it("leaves damaged leads alone until they are corrected", async () => {
    const damaged = (await sb.createLead(validLead({ city: "Atlantis", customer_phone: uniquePhone() }))).body.data.ref;
    await sb.control.clock(6 * 3600);
    expect((await sb.control.leads())[0]).toMatchObject({ ref: damaged, confirmation_status: "new" });
    await sb.control.correct(damaged, { city: "Rabat" });
    await sb.control.clock(6 * 3600);
    expect((await sb.control.leads())[0].confirmation_status).not.toBe("new");
  });

  it("can be switched off by config: new leads then stay put", async () => {
    await sb.control.config({ autopilot: false });
    await createLeads(5);
    await sb.control.clock(6 * 3600);
    expect((await sb.control.leads()).every((l) => l.confirmation_status === "new")).toBe(true);
  });
});

describe("lifecycle plans (pure)", () => {
  it("property: every plan is a legal sequence of transitions ending in a final state", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 }), (seed) => {
        const steps = planLifecycle(seededRandom(seed));
        const state: LeadStatus = { confirmation_status: "new", shipping_status: "pending" };
        for (const { afterSeconds, change } of steps) {
          expect(afterSeconds).toBeGreaterThan(0);
          if (change.confirmation_status) {
            expect(confirmationRefusal(state, change.confirmation_status)).toBeNull();
            state.confirmation_status = change.confirmation_status;
          }
          if (change.shipping_status) {
            expect(shippingRefusal(state, change.shipping_status)).toBeNull();
            state.shipping_status = change.shipping_status;
          }
        }
        const final =
          ["canceled", "wrong", "fake", "duplicate"].includes(state.confirmation_status) ||
          ["paid", "returned", "canceled"].includes(state.shipping_status);
        expect(final).toBe(true);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it("is deterministic per lead id", () => {
    expect(planLifecycle(seededRandom(42))).toEqual(planLifecycle(seededRandom(42)));
  });
});
