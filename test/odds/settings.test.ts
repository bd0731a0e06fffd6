import { describe, expect, it } from "vitest";
import { DEFAULT_SHOP_SETTINGS, readShopSettings } from "../../app/models/shop-settings";
import { parseSettingsForm, settingsFormValues } from "../../app/pages/settings.server";

describe("delivery odds settings", () => {
  it("GIVEN a shop that never chose THEN every order is sent (existing shops keep today's behaviour) and the trigger is on", () => {
    expect(DEFAULT_SHOP_SETTINGS.deliveryOdds).toEqual({ policy: "send_all", minPercent: 30, refusalCost: 0 });
    expect(
      readShopSettings(JSON.stringify({ autoSend: true, customerHold: { enabled: true } })).deliveryOdds.policy,
    ).toBe("send_all");
    expect(DEFAULT_SHOP_SETTINGS.flowTriggers.deliveryOdds).toBe(true);
  });

  it("GIVEN the Settings form THEN the policy, the threshold and the cost round-trip, and bad values are named field by field", () => {
    const values = settingsFormValues(DEFAULT_SHOP_SETTINGS);
    expect(values).toMatchObject({
      "deliveryOdds.policy": "send_all",
      "deliveryOdds.minPercent": "30",
      "deliveryOdds.refusalCost": "0",
      "flowTriggers.deliveryOdds": "true",
    });
    const saved = parseSettingsForm(
      { ...values, "deliveryOdds.policy": "hold_negative_value", "deliveryOdds.refusalCost": "12" },
      DEFAULT_SHOP_SETTINGS,
    );
    expect(saved).toMatchObject({
      ok: true,
      settings: { deliveryOdds: { policy: "hold_negative_value", minPercent: 30, refusalCost: 12 } },
    });
    expect(
      parseSettingsForm(
        {
          ...values,
          "deliveryOdds.policy": "hold_all",
          "deliveryOdds.minPercent": "100",
          "deliveryOdds.refusalCost": "-1",
        },
        DEFAULT_SHOP_SETTINGS,
      ),
    ).toEqual({
      ok: false,
      fieldErrors: {
        "deliveryOdds.policy": { code: "invalid" },
        "deliveryOdds.minPercent": { code: "max", max: 99 },
        "deliveryOdds.refusalCost": { code: "min", min: 0 },
      },
    });
  });
});
