/** Settings: which orders are sent, and which are held for the merchant to check. */
import { BlockStack, Box, InlineGrid, Text, TextField } from "@shopify/polaris";
import { isMessageKey } from "../../i18n";
import { useT } from "../../i18n/react";
import { SettingsSection } from "./SettingsSection";
import { SettingCheckbox, type SettingsSectionProps } from "./fields";

export function SendingSection({ holdCodes, ...props }: SettingsSectionProps & { holdCodes: readonly string[] }) {
  const t = useT();
  return (
    <SettingsSection id="sending" title={t("settings.sending.title")} description={t("settings.sending.intro")}>
      <BlockStack gap="100">
        <SettingCheckbox
          {...props}
          name="autoSend"
          label={t("settings.autoSend.label")}
          helpText={t("settings.autoSend.help")}
        />
        <SettingCheckbox
          {...props}
          name="sendAllOrders"
          label={t("settings.sendAllOrders.label")}
          helpText={t("settings.sendAllOrders.help")}
        />
        <SettingCheckbox
          {...props}
          name="sendTestOrders"
          label={t("settings.sendTestOrders.label")}
          helpText={t("settings.sendTestOrders.help")}
        />
      </BlockStack>
      <Box maxWidth="24rem">
        <TextField
          label={t("settings.staleOrderDays.label")}
          helpText={t("settings.staleOrderDays.help")}
          name="staleOrderDays"
          type="number"
          min={1}
          max={90}
          suffix={t("settings.staleOrderDays.suffix")}
          value={props.form.staleOrderDays ?? ""}
          onChange={props.set("staleOrderDays")}
          autoComplete="off"
          error={props.errorText("staleOrderDays")}
        />
      </Box>
      <BlockStack gap="100">
        <Text as="h3" variant="headingSm">
          {t("settings.hold.title")}
        </Text>
        <Text as="p" variant="bodySm" tone="subdued">
          {t("settings.hold.help")}
        </Text>
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="100">
          {holdCodes.map((code) => {
            const key = `settings.hold.${code}`;
            const help = `${key}Help`;
            return (
              <SettingCheckbox
                key={code}
                {...props}
                name={`holdPolicy.${code}`}
                label={isMessageKey(key) ? t(key) : code}
                helpText={isMessageKey(help) ? t(help) : undefined}
              />
            );
          })}
        </InlineGrid>
      </BlockStack>
    </SettingsSection>
  );
}
