/**
 * Settings: the maintenance pages, out of the daily navigation: sync health and
 * logs (Activity), and importing past orders (Backfill).
 */
import { BlockStack, InlineStack, Link, Text } from "@shopify/polaris";
import { useT } from "../../i18n/react";
import { SettingsSection } from "./SettingsSection";

export function MaintenanceSection() {
  const t = useT();
  return (
    <SettingsSection id="maintenance" title={t("settings.maintenance.title")}>
      <div data-section="maintenance">
        <BlockStack gap="300">
          <BlockStack gap="200">
            <InlineStack gap="200" blockAlign="baseline" wrap>
              <Link url="/app/activity">{t("nav.activity")}</Link>
              <Text as="span" variant="bodySm" tone="subdued">
                {t("settings.maintenance.activity")}
              </Text>
            </InlineStack>
            <InlineStack gap="200" blockAlign="baseline" wrap>
              <Link url="/app/backfill">{t("nav.backfill")}</Link>
              <Text as="span" variant="bodySm" tone="subdued">
                {t("settings.maintenance.backfill")}
              </Text>
            </InlineStack>
          </BlockStack>
        </BlockStack>
      </div>
    </SettingsSection>
  );
}
