/**
 * Settings: the customer hold rule (app/customers/risk.ts). Its own component so
 * the Settings route stays a list of sections; the route owns the form state.
 */
import { Checkbox, FormLayout, TextField } from "@shopify/polaris";
import { useT } from "../../i18n/react";
import { SettingsSection } from "./SettingsSection";
import type { SettingsSectionProps } from "./fields";

export type CustomerHoldSectionProps = SettingsSectionProps;

export function CustomerHoldSection({ form, set, errorText }: CustomerHoldSectionProps) {
  const t = useT();
  const enabled = form["customerHold.enabled"] === "true";
  return (
    <SettingsSection
      id="customer-hold"
      title={t("settings.customerHold.title")}
      description={t("settings.customerHold.help")}
    >
      <Checkbox
        label={t("settings.customerHold.enabled")}
        checked={enabled}
        onChange={set("customerHold.enabled")}
        error={errorText("customerHold.enabled")}
      />
      <FormLayout>
        <FormLayout.Group>
          <TextField
            label={t("settings.customerHold.failures")}
            name="customerHold.failures"
            type="number"
            value={form["customerHold.failures"] ?? ""}
            onChange={set("customerHold.failures")}
            disabled={!enabled}
            autoComplete="off"
            error={errorText("customerHold.failures")}
          />
          <TextField
            label={t("settings.customerHold.days")}
            name="customerHold.days"
            type="number"
            value={form["customerHold.days"] ?? ""}
            onChange={set("customerHold.days")}
            disabled={!enabled}
            autoComplete="off"
            error={errorText("customerHold.days")}
          />
        </FormLayout.Group>
      </FormLayout>
      <Checkbox
        label={t("settings.shareCustomerRecords.label")}
        helpText={t("settings.shareCustomerRecords.help")}
        checked={form.shareCustomerRecords === "true"}
        onChange={set("shareCustomerRecords")}
        error={errorText("shareCustomerRecords")}
      />
    </SettingsSection>
  );
}
