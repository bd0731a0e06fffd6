import { describe, expect, it } from "vitest";
import { DEFAULT_SHOP_SETTINGS, readShopSettings } from "../../app/models/shop-settings";
import { parseSettingsForm, settingsFormValues } from "../../app/pages/settings.server";

describe("customer hold settings", () => {
  it("is off by default: 2 failures in 90 days once turned on", () => {
    expect(DEFAULT_SHOP_SETTINGS.customerHold).toEqual({ enabled: false, failures: 2, days: 90 });
    expect(readShopSettings(JSON.stringify({ autoSend: true })).customerHold.enabled).toBe(false);
  });

  it("round-trips through the Settings form and refuses out-of-range numbers field by field", () => {
    const values = settingsFormValues(DEFAULT_SHOP_SETTINGS);
    expect(values).toMatchObject({
      "customerHold.enabled": "false",
      "customerHold.failures": "2",
      "customerHold.days": "90",
    });
    const on = parseSettingsForm(
      { ...values, "customerHold.enabled": "true", "customerHold.failures": "3", "customerHold.days": "30" },
      DEFAULT_SHOP_SETTINGS,
    );
    expect(on).toEqual({
      ok: true,
      settings: { ...DEFAULT_SHOP_SETTINGS, customerHold: { enabled: true, failures: 3, days: 30 } },
    });
    const bad = parseSettingsForm(
      { ...values, "customerHold.failures": "0", "customerHold.days": "abc" },
      DEFAULT_SHOP_SETTINGS,
    );
    // Sharing records with the merchant's other stores: off until the store says yes, and revocable from the same form.
    expect(values.shareCustomerRecords).toBe("false");
    const sharing = parseSettingsForm({ ...values, shareCustomerRecords: "true" }, DEFAULT_SHOP_SETTINGS);
    expect(sharing).toMatchObject({ ok: true, settings: { shareCustomerRecords: true } });
    if (sharing.ok)
      expect(parseSettingsForm({ ...values, shareCustomerRecords: "false" }, sharing.settings)).toMatchObject({
        ok: true,
        settings: { shareCustomerRecords: false },
      });
    expect(bad).toEqual({
      ok: false,
      fieldErrors: { "customerHold.failures": { code: "min", min: 1 }, "customerHold.days": { code: "integer" } },
    });
  });
});
