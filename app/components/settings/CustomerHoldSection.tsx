/**
 * Settings: the customer hold rule (app/customers/risk.ts). Its own component so
 * the Settings route stays a list of sections; the route owns the form state.
 */
import { BlockStack, Card, Checkbox, FormLayout, Layout, Text, TextField } from "@shopify/polaris";
import { useT } from "../../i18n/react";

export interface CustomerHoldSectionProps {
  form: Record<string, string>;
  set: (name: string) => (value: string | boolean) => void;
  errorText: (name: string) => string | undefined;
}

export function CustomerHoldSection({ form, set, errorText }: CustomerHoldSectionProps) {
  const t = useT();
  const enabled = form["customerHold.enabled"] === "true";
  return (
    <Layout.Section>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {t("settings.customerHold.title")}
          </Text>
          <Text as="p" variant="bodySm" tone="subdued">
            {t("settings.customerHold.help")}
          </Text>
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
        </BlockStack>
      </Card>
    </Layout.Section>
  );
}
