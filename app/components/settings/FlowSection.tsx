/** Settings: the Shopify Flow triggers the shop sends. */
import { BlockStack } from "@shopify/polaris";
import { useT } from "../../i18n/react";
import { SettingsSection } from "./SettingsSection";
import { SettingCheckbox, type SettingsSectionProps } from "./fields";

export function FlowSection(props: SettingsSectionProps) {
  const t = useT();
  return (
    <SettingsSection id="flow" title={t("settings.flow.title")} description={t("settings.flow.help")}>
      <BlockStack gap="100">
        <SettingCheckbox {...props} name="flowTriggers.leadCreated" label={t("settings.flow.leadCreated")} />
        <SettingCheckbox
          {...props}
          name="flowTriggers.leadStatusChanged"
          label={t("settings.flow.leadStatusChanged")}
        />
        <SettingCheckbox
          {...props}
          name="flowTriggers.orderNeedsAttention"
          label={t("settings.flow.orderNeedsAttention")}
        />
        <SettingCheckbox {...props} name="flowTriggers.orderStuck" label={t("settings.flow.orderStuck")} />
      </BlockStack>
    </SettingsSection>
  );
}
