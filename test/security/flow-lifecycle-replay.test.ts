/**
 * Flow's trigger lifecycle callback has a replay window. Its body is all that is signed
 * (no delivery id, no signed time header), so a captured callback can be posted again
 * at will; its own `timestamp` (Shopify: when the notification was created) is what
 * bounds that. Against the production server, signed with the app's secret as Flow signs:
 * a fresh callback is recorded; the same body an hour later, one without a timestamp,
 * and one dated far ahead are refused and record nothing.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { postSignedAsFlow } from "../../shopify-admin/flow";
import { LIFECYCLE_MAX_AGE_MS } from "../../app/pages/flow-lifecycle.server";
import { useAppServer } from "./app-server";

const SHOP = "flow-replay.myshopify.com";
const server = useAppServer({ shops: [SHOP] });

const callback = (timestamp: string | undefined, hasEnabledFlow = true) => ({
  flow_trigger_definition_id: "lead-created",
  has_enabled_flow: hasEnabledFlow,
  shop_id: 690933842,
  shopify_domain: SHOP,
  ...(timestamp === undefined ? {} : { timestamp }),
});
const post = (body: unknown) => postSignedAsFlow(`${server().url}/flow/lifecycle`, body, server().apiSecret);
const usage = () => server().db.flowTriggerUsage.findMany({ where: { shop: SHOP } });

beforeEach(async () => {
  await server().db.flowTriggerUsage.deleteMany();
});

describe("the Flow lifecycle callback", () => {
  it("GIVEN a fresh signed callback WHEN it arrives THEN the trigger's use is recorded", async () => {
    expect(await post(callback(new Date().toISOString()))).toMatchObject({
      status: 200,
      body: { ok: true, handles: ["lead-created"] },
    });
    expect((await usage()).map((u) => [u.handle, u.hasEnabledFlow])).toEqual([["lead-created", true]]);
  });

  it("GIVEN a signed callback captured an hour ago WHEN it is replayed THEN it is refused and nothing is recorded", async () => {
    const captured = callback(new Date(Date.now() - 3600_000).toISOString());
    expect((await post(captured)).status).toBe(400);
    // Just past the window, and without a timestamp at all (it would count as now).
    expect((await post(callback(new Date(Date.now() - LIFECYCLE_MAX_AGE_MS - 60_000).toISOString()))).status).toBe(400);
    expect((await post(callback(undefined))).status).toBe(400);
    // Dated ahead: it would outrank every genuine notification to come.
    expect((await post(callback(new Date(Date.now() + 24 * 3600_000).toISOString()))).status).toBe(400);
    expect(await usage()).toEqual([]);
  });
});
