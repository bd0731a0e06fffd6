/** Settings: the merchant's COD platform, its key (write-only, checked when the page is saved) and the account it opened. */
import { Badge, BlockStack, Box, InlineGrid, InlineStack, Text, TextField } from "@shopify/polaris";
import type { SellerConnectionView } from "../../pages/settings.server";
import { translateCode, useFormat, useT } from "../../i18n/react";
import type { MessageKey } from "../../i18n";
import { SettingsSection } from "./SettingsSection";

export function ConnectionSection({
  connection,
  apiKey,
  onApiKey,
  keyError,
}: {
  connection: SellerConnectionView | null;
  apiKey: string;
  onApiKey: (value: string) => void;
  keyError?: string;
}) {
  const t = useT();
  return (
    <SettingsSection
      id="connection"
      title={t("settings.connection.title")}
      description={t("settings.connection.intro")}
    >
      <ConnectedAccount connection={connection} />
      <TextField
        label={t("settings.apiKey.label")}
        name="apiKey"
        type="password"
        value={apiKey}
        onChange={onApiKey}
        placeholder={connection?.keyLast4 ? t("settings.apiKey.saved", { last4: connection.keyLast4 }) : undefined}
        helpText={t("settings.apiKey.help")}
        autoComplete="off"
        error={keyError}
      />
    </SettingsSection>
  );
}

function ConnectedAccount({ connection }: { connection: SellerConnectionView | null }) {
  const t = useT();
  const format = useFormat();
  if (!connection) {
    return (
      <Box padding="300" background="bg-surface-secondary" borderRadius="200">
        <Text as="p" tone="subdued">
          {t("settings.account.none")}
        </Text>
      </Box>
    );
  }
  const rows: [MessageKey, string][] = [
    ["settings.account.name", connection.name ?? t("common.notSet")],
    ["settings.account.id", connection.account ?? t("common.notSet")],
    ["settings.account.key", t("settings.account.keyValue", { last4: connection.keyLast4 })],
    [
      "settings.account.verifiedAt",
      connection.verifiedLocal ? format.dateTime(connection.verifiedLocal, { year: true }) : t("common.notSet"),
    ],
  ];
  return (
    <Box padding="300" background="bg-surface-secondary" borderRadius="200">
      <BlockStack gap="200">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h3" variant="headingSm">
            {t("settings.account.title")}
          </Text>
          {connection.pausedReason ? (
            <Badge tone="critical">
              {t("settings.account.paused", { reason: translateCode(t, "paused", connection.pausedReason) })}
            </Badge>
          ) : null}
        </InlineStack>
        <InlineGrid columns={{ xs: 1, sm: 2 }} gap="200">
          {rows.map(([label, value]) => (
            <BlockStack key={label} gap="050">
              <Text as="span" variant="bodySm" tone="subdued">
                {t(label)}
              </Text>
              <Text as="span" variant="bodyMd" fontWeight="semibold">
                <span data-field={label.slice("settings.account.".length)}>{value}</span>
              </Text>
            </BlockStack>
          ))}
        </InlineGrid>
      </BlockStack>
    </Box>
  );
}
