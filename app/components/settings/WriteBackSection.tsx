/** Settings: what the app writes on the Shopify order as the lead moves. */
import { BlockStack, TextField } from "@shopify/polaris";
import { useT } from "../../i18n/react";
import { SettingsSection } from "./SettingsSection";
import { SettingCheckbox, type SettingsSectionProps } from "./fields";

export function WriteBackSection(props: SettingsSectionProps) {
  const t = useT();
  const { form, set, errorText } = props;
  return (
    <SettingsSection id="write-back" title={t("settings.writeBack.title")} description={t("settings.writeBack.intro")}>
      <BlockStack gap="100">
        <SettingCheckbox {...props} name="writeBack.tags" label={t("settings.writeBack.tags")} />
        <SettingCheckbox {...props} name="writeBack.fulfillment" label={t("settings.writeBack.fulfillment")} />
        <SettingCheckbox {...props} name="writeBack.markPaid" label={t("settings.writeBack.markPaid")} />
        <SettingCheckbox {...props} name="writeBack.cancel" label={t("settings.writeBack.cancel")} />
      </BlockStack>
      <TextField
        label={t("settings.carrierName.label")}
        name="carrierName"
        value={form.carrierName ?? ""}
        onChange={set("carrierName")}
        helpText={t("settings.carrierName.help")}
        autoComplete="off"
        error={errorText("carrierName")}
      />
      <TextField
        label={t("settings.sellerSpaceUrl.label")}
        name="sellerSpaceUrl"
        type="url"
        value={form.sellerSpaceUrl ?? ""}
        onChange={set("sellerSpaceUrl")}
        helpText={t("settings.sellerSpaceUrl.help")}
        placeholder={t("settings.sellerSpaceUrl.placeholder")}
        autoComplete="off"
        error={errorText("sellerSpaceUrl")}
      />
    </SettingsSection>
  );
}
