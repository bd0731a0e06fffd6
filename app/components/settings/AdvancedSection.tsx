/**
 * Settings, Advanced: what most merchants never change. The platform's address
 * and what it said about the account, payment methods read as cash on
 * delivery, status checks, data retention, and instant status updates.
 */
import { useState } from "react";
import {
  Badge,
  BlockStack,
  Button,
  Divider,
  FormLayout,
  InlineGrid,
  InlineStack,
  Text,
  TextField,
} from "@shopify/polaris";
import type { SellerConnectionView } from "../../pages/settings.server";
import { useT } from "../../i18n/react";
import type { MessageKey } from "../../i18n";
import { SettingsSection } from "./SettingsSection";
import type { SettingsSectionProps } from "./fields";

export interface AdvancedSectionProps extends SettingsSectionProps {
  connection: SellerConnectionView | null;
  baseUrl: string;
  onBaseUrl: (value: string) => void;
  defaultBaseUrl: string | null;
  baseUrlError?: string;
  eventsUrl: string;
  hasEventsSecret: boolean;
}

export function AdvancedSection({
  connection,
  baseUrl,
  onBaseUrl,
  defaultBaseUrl,
  baseUrlError,
  eventsUrl,
  hasEventsSecret,
  ...props
}: AdvancedSectionProps) {
  const t = useT();
  const { form, set, errorText } = props;
  const [copied, setCopied] = useState(false);
  const copyEventsUrl = () => {
    void navigator.clipboard?.writeText(eventsUrl).then(() => setCopied(true));
  };
  const facts: [MessageKey, string][] = connection
    ? [
        ["settings.account.prefix", connection.leadPrefix ?? t("common.notSet")],
        [
          "settings.account.rate",
          connection.rateLimitPerMinute === null
            ? t("common.notSet")
            : t("settings.account.rateValue", { rate: connection.rateLimitPerMinute }),
        ],
        ["settings.account.apiVersion", connection.apiVersion ?? t("common.notSet")],
      ]
    : [];
  return (
    <SettingsSection id="advanced" title={t("settings.sync.title")} description={t("settings.advanced.intro")}>
      <FormLayout>
        <TextField
          label={t("settings.baseUrl.label")}
          name="baseUrl"
          type="url"
          value={baseUrl}
          onChange={onBaseUrl}
          placeholder={defaultBaseUrl ?? t("settings.baseUrl.placeholder")}
          helpText={
            defaultBaseUrl ? t("settings.baseUrl.help", { url: defaultBaseUrl }) : t("settings.baseUrl.helpNoDefault")
          }
          autoComplete="off"
          error={baseUrlError}
        />
        {facts.length > 0 ? (
          <InlineGrid columns={{ xs: 1, sm: 3 }} gap="200">
            {facts.map(([label, value]) => (
              <BlockStack key={label} gap="050">
                <Text as="span" variant="bodySm" tone="subdued">
                  {t(label)}
                </Text>
                <Text as="span" variant="bodyMd">
                  <span data-field={label.slice("settings.account.".length)}>{value}</span>
                </Text>
              </BlockStack>
            ))}
          </InlineGrid>
        ) : null}
        <TextField
          label={t("settings.codPatterns.label")}
          name="codGatewayPatterns"
          value={form.codGatewayPatterns ?? ""}
          onChange={set("codGatewayPatterns")}
          multiline={3}
          helpText={t("settings.codPatterns.help")}
          autoComplete="off"
          error={errorText("codGatewayPatterns")}
        />
        <FormLayout.Group>
          <TextField
            label={t("settings.statusSync.label")}
            name="statusSyncMinutes"
            type="number"
            value={form.statusSyncMinutes ?? ""}
            onChange={set("statusSyncMinutes")}
            autoComplete="off"
            error={errorText("statusSyncMinutes")}
          />
          <TextField
            label={t("settings.retention.label")}
            name="retentionDays"
            type="number"
            value={form.retentionDays ?? ""}
            onChange={set("retentionDays")}
            helpText={t("settings.retention.help")}
            autoComplete="off"
            error={errorText("retentionDays")}
          />
        </FormLayout.Group>
      </FormLayout>
      <Divider />
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h3" variant="headingSm">
            {t("settings.events.title")}
          </Text>
          <Badge tone={hasEventsSecret ? "success" : undefined}>
            {hasEventsSecret ? t("settings.eventsSecret.saved") : t("settings.eventsSecret.none")}
          </Badge>
        </InlineStack>
        <Text as="p" variant="bodySm" tone="subdued">
          {t("settings.events.intro")}
        </Text>
        <FormLayout>
          <TextField
            label={t("settings.eventsUrl.label")}
            value={eventsUrl}
            readOnly
            autoComplete="off"
            selectTextOnFocus
            connectedRight={<Button onClick={copyEventsUrl}>{copied ? t("common.copied") : t("common.copy")}</Button>}
          />
          <TextField
            label={t("settings.eventsSecret.label")}
            name="eventsSecret"
            type="password"
            value={form.eventsSecret ?? ""}
            onChange={set("eventsSecret")}
            helpText={t("settings.eventsSecret.help")}
            error={errorText("eventsSecret")}
            autoComplete="off"
          />
        </FormLayout>
      </BlockStack>
    </SettingsSection>
  );
}
