/**
 * Settings: the maintenance pages, out of the daily navigation: sync health and
 * logs (Activity), and importing past orders (Backfill).
 */
import { BlockStack, Card, InlineStack, Layout, Link, Text } from "@shopify/polaris";
import { useT } from "../../i18n/react";

export function MaintenanceSection() {
  const t = useT();
  return (
    <Layout.Section>
      <div data-section="maintenance">
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {t("settings.maintenance.title")}
            </Text>
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
        </Card>
      </div>
    </Layout.Section>
  );
}
