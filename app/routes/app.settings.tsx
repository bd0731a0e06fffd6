/**
 * Settings: the Seller Order API key (write-only, verified before it is saved),
 * sending rules, write-back, status sync, platform events and data retention.
 */
import { useEffect, useState, type ReactNode } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  FormLayout,
  InlineGrid,
  InlineStack,
  Layout,
  Page,
  PageActions,
  Text,
  TextField,
} from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { env } from "../env.server";
import prisma from "../db.server";
import {
  loadSettingsPage,
  saveShopSettings,
  verifyAndSaveKey,
  type FieldError,
  type FieldErrors,
  type KeyErrorCode,
  type SellerConnectionView,
  type SettingsFormValues,
} from "../pages/settings.server";
import { formatInstant, isMessageKey, type MessageKey } from "../i18n";
import { translateCode, useT, type Translate } from "../i18n/react";
import { CustomerHoldSection } from "../components/settings/CustomerHoldSection";
import { CashSection } from "../components/settings/CashSection";
import { ContactMessageSection } from "../components/settings/ContactMessageSection";
import { MaintenanceSection } from "../components/settings/MaintenanceSection";
import { formText } from "../http/form";
import { StorePairingSection } from "../components/settings/StorePairingSection";
import { loadPairingView, runPairingAction } from "../customers/pairing.server";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const page = await loadSettingsPage(prisma, session.shop, { appUrl: env.SHOPIFY_APP_URL, defaultBaseUrl: env.SELLER_API_BASE_URL });
  return { ...page, pairing: await loadPairingView(prisma, session.shop, { defaultBaseUrl: env.SELLER_API_BASE_URL ?? null }) };
});

export const action = withErrorReference(async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  const intent = formText(form, "intent");
  if (intent === "verifyKey") {
    const result = await verifyAndSaveKey(
      prisma,
      session.shop,
      { apiKey: formText(form, "apiKey") ?? "", baseUrl: formText(form, "baseUrl") ?? "" },
      { defaultBaseUrl: env.SELLER_API_BASE_URL },
    );
    return { intent: "verifyKey" as const, ...result };
  }
  if (intent === "saveSettings") {
    const values: SettingsFormValues = {};
    for (const [name, value] of form) {
      if (typeof value === "string" && name !== "intent") values[name] = value;
    }
    const result = await saveShopSettings(prisma, session.shop, values);
    return { intent: "saveSettings" as const, ...result };
  }
  const pairing = await runPairingAction(prisma, session.shop, intent, (name) => formText(form, name), { defaultBaseUrl: env.SELLER_API_BASE_URL ?? null });
  if (pairing) return pairing;
  throw new Response("Unknown intent", { status: 400 });
});

const KEY_ERRORS: Record<KeyErrorCode, MessageKey> = {
  missing_key: "settings.key.error.missingKey",
  invalid_key: "settings.key.error.invalidKey",
  invalid_base_url: "settings.key.error.invalidBaseUrl",
  no_base_url: "settings.key.error.noBaseUrl",
  key_required: "settings.key.error.keyRequired",
  // One message for every failure once the platform was called (see KeyErrorCode).
  not_verified: "settings.key.error.notVerified",
};
/** Errors shown on the key field rather than only in the banner. */
const KEY_FIELD_ERRORS: KeyErrorCode[] = ["missing_key", "invalid_key", "key_required"];

function fieldErrorText(t: Translate, error: FieldError | undefined): string | undefined {
  if (!error) return undefined;
  if (error.code === "min") return t("settings.field.min", { min: error.min ?? 0 });
  if (error.code === "max") return t("settings.field.max", { max: error.max ?? 0 });
  if (error.code === "integer") return t("settings.field.integer");
  if (error.code === "required") return t("settings.field.required");
  return t("settings.field.invalid");
}

export default function Settings() {
  const data = useLoaderData<typeof loader>();
  const t = useT();
  const shopify = useAppBridge();
  const keyFetcher = useFetcher<typeof action>({ key: "settings-key" });
  const settingsFetcher = useFetcher<typeof action>({ key: "settings-form" });

  const [baseUrl, setBaseUrl] = useState(data.baseUrl);
  const [apiKey, setApiKey] = useState("");
  const [form, setForm] = useState<SettingsFormValues>(() => ({ ...data.form, eventsSecret: "" }));
  const [copied, setCopied] = useState(false);

  const keyResult = keyFetcher.data?.intent === "verifyKey" ? keyFetcher.data : undefined;
  const settingsResult = settingsFetcher.data?.intent === "saveSettings" ? settingsFetcher.data : undefined;
  const fieldErrors: FieldErrors = settingsResult && !settingsResult.ok ? settingsResult.fieldErrors : {};

  useEffect(() => {
    if (keyResult?.ok) {
      // The key leaves the page as soon as the platform accepted it.
      setApiKey("");
      shopify.toast.show(t("settings.key.verified", { name: keyResult.connection.name ?? "" }));
    }
  }, [keyResult, shopify, t]);

  useEffect(() => {
    if (settingsResult?.ok) {
      setForm((current) => ({ ...current, eventsSecret: "" }));
      shopify.toast.show(t("settings.saved"));
    }
  }, [settingsResult, shopify, t]);

  const set = (name: string) => (value: string | boolean) =>
    setForm((current) => ({ ...current, [name]: typeof value === "boolean" ? String(value) : value }));
  const checkbox = (name: string, label: string, helpText?: ReactNode) => (
    <Checkbox
      key={name}
      label={label}
      helpText={helpText}
      checked={form[name] === "true"}
      onChange={set(name)}
      error={fieldErrorText(t, fieldErrors[name])}
    />
  );

  const verifyKey = () => keyFetcher.submit({ intent: "verifyKey", apiKey, baseUrl }, { method: "post" });
  const saveSettings = () => settingsFetcher.submit({ intent: "saveSettings", ...form }, { method: "post" });
  const copyEventsUrl = () => {
    void navigator.clipboard?.writeText(data.eventsUrl).then(() => setCopied(true));
  };

  const connection: SellerConnectionView | null = data.connection;

  return (
    <Page title={t("settings.title")}>
      <Layout>
        {keyResult && !keyResult.ok ? (
          <Layout.Section>
            <Banner tone="critical">
              <p>{t(KEY_ERRORS[keyResult.error])}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {keyResult?.ok && keyResult.keyStore && keyResult.keyStore !== data.shop ? (
          <Layout.Section>
            <Banner tone="warning">
              <p>{t("settings.key.warning.otherStore", { store: keyResult.keyStore })}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {Object.keys(fieldErrors).length > 0 ? (
          <Layout.Section>
            <Banner tone="critical" title={t("settings.error.title")} />
          </Layout.Section>
        ) : null}

        <Layout.Section>
          <Card>
            <BlockStack gap="400">
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t("settings.connection.title")}
                </Text>
                <Text as="p" tone="subdued">
                  {t("settings.connection.intro")}
                </Text>
              </BlockStack>
              <ConnectedAccount connection={connection} />
              <FormLayout>
                <TextField
                  label={t("settings.baseUrl.label")}
                  name="baseUrl"
                  type="url"
                  value={baseUrl}
                  onChange={setBaseUrl}
                  placeholder={data.defaultBaseUrl ?? "https://"}
                  helpText={
                    data.defaultBaseUrl
                      ? t("settings.baseUrl.help", { url: data.defaultBaseUrl })
                      : t("settings.baseUrl.helpNoDefault")
                  }
                  autoComplete="off"
                  error={keyResult && !keyResult.ok && keyResult.error === "invalid_base_url" ? t("settings.key.error.invalidBaseUrl") : undefined}
                />
                <TextField
                  label={t("settings.apiKey.label")}
                  name="apiKey"
                  type="password"
                  value={apiKey}
                  onChange={setApiKey}
                  placeholder={connection?.keyLast4 ? t("settings.apiKey.saved", { last4: connection.keyLast4 }) : undefined}
                  helpText={t("settings.apiKey.help")}
                  autoComplete="off"
                  error={keyResult && !keyResult.ok && KEY_FIELD_ERRORS.includes(keyResult.error) ? t(KEY_ERRORS[keyResult.error]) : undefined}
                />
                <InlineStack align="end">
                  <Button variant="primary" onClick={verifyKey} loading={keyFetcher.state !== "idle"}>
                    {t("settings.verify")}
                  </Button>
                </InlineStack>
              </FormLayout>
            </BlockStack>
          </Card>
        </Layout.Section>

        <SettingsSection title={t("settings.sending.title")}>
          <FormLayout>
            {checkbox("autoSend", t("settings.autoSend.label"), t("settings.autoSend.help"))}
            {checkbox("sendAllOrders", t("settings.sendAllOrders.label"))}
            {checkbox("sendTestOrders", t("settings.sendTestOrders.label"), t("settings.sendTestOrders.help"))}
            <TextField
              label={t("settings.codPatterns.label")}
              name="codGatewayPatterns"
              value={form.codGatewayPatterns ?? ""}
              onChange={set("codGatewayPatterns")}
              multiline={4}
              helpText={t("settings.codPatterns.help")}
              autoComplete="off"
              error={fieldErrorText(t, fieldErrors.codGatewayPatterns)}
            />
            <BlockStack gap="100">
              <Text as="h3" variant="headingSm">
                {t("settings.hold.title")}
              </Text>
              <Text as="p" variant="bodySm" tone="subdued">
                {t("settings.hold.help")}
              </Text>
              <InlineGrid columns={{ xs: 1, md: 2 }} gap="100">
                {data.holdCodes.map((code) => {
                  const key = `settings.hold.${code}`;
                  return checkbox(`holdPolicy.${code}`, isMessageKey(key) ? t(key) : code);
                })}
              </InlineGrid>
            </BlockStack>
          </FormLayout>
        </SettingsSection>

        <SettingsSection title={t("settings.writeBack.title")}>
          <BlockStack gap="100">
            {checkbox("writeBack.tags", t("settings.writeBack.tags"))}
            {checkbox("writeBack.fulfillment", t("settings.writeBack.fulfillment"))}
            {checkbox("writeBack.markPaid", t("settings.writeBack.markPaid"))}
            {checkbox("writeBack.cancel", t("settings.writeBack.cancel"))}
          </BlockStack>
          <TextField
            label={t("settings.carrierName.label")}
            name="carrierName"
            value={form.carrierName ?? ""}
            onChange={set("carrierName")}
            helpText={t("settings.carrierName.help")}
            autoComplete="off"
            error={fieldErrorText(t, fieldErrors.carrierName)}
          />
        </SettingsSection>

        <SettingsSection title={t("settings.flow.title")}>
          <Text as="p" variant="bodySm" tone="subdued">
            {t("settings.flow.help")}
          </Text>
          <BlockStack gap="100">
            {checkbox("flowTriggers.leadCreated", t("settings.flow.leadCreated"))}
            {checkbox("flowTriggers.leadStatusChanged", t("settings.flow.leadStatusChanged"))}
            {checkbox("flowTriggers.orderNeedsAttention", t("settings.flow.orderNeedsAttention"))}
            {checkbox("flowTriggers.orderStuck", t("settings.flow.orderStuck"))}
          </BlockStack>
        </SettingsSection>

        <CustomerHoldSection form={form} set={set} errorText={(name) => fieldErrorText(t, fieldErrors[name])} />
        <StorePairingSection pairing={data.pairing} />
        <CashSection form={form} set={set} errorText={(name) => fieldErrorText(t, fieldErrors[name])} />
        <ContactMessageSection form={form} set={set} errorText={(name) => fieldErrorText(t, fieldErrors[name])} />

        <SettingsSection title={t("settings.sync.title")}>
          <FormLayout>
            <FormLayout.Group>
              <TextField
                label={t("settings.statusSync.label")}
                name="statusSyncMinutes"
                type="number"
                value={form.statusSyncMinutes ?? ""}
                onChange={set("statusSyncMinutes")}
                autoComplete="off"
                error={fieldErrorText(t, fieldErrors.statusSyncMinutes)}
              />
              <TextField
                label={t("settings.retention.label")}
                name="retentionDays"
                type="number"
                value={form.retentionDays ?? ""}
                onChange={set("retentionDays")}
                helpText={t("settings.retention.help")}
                autoComplete="off"
                error={fieldErrorText(t, fieldErrors.retentionDays)}
              />
            </FormLayout.Group>
          </FormLayout>
        </SettingsSection>

        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <InlineStack align="space-between" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  {t("settings.events.title")}
                </Text>
                <Badge tone={data.hasEventsSecret ? "success" : undefined}>
                  {data.hasEventsSecret ? t("settings.eventsSecret.saved") : t("settings.eventsSecret.none")}
                </Badge>
              </InlineStack>
              <Text as="p" tone="subdued">
                {t("settings.events.intro")}
              </Text>
              <FormLayout>
                <TextField
                  label={t("settings.eventsUrl.label")}
                  value={data.eventsUrl}
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
                  error={fieldErrors.eventsSecret ? t("settings.eventsSecret.weak", { min: fieldErrors.eventsSecret.min ?? 0 }) : undefined}
                  autoComplete="off"
                />
              </FormLayout>
            </BlockStack>
          </Card>
        </Layout.Section>

        <MaintenanceSection />

        <Layout.Section>
          <PageActions
            primaryAction={{
              content: t("settings.saveSettings"),
              onAction: saveSettings,
              loading: settingsFetcher.state !== "idle",
            }}
          />
        </Layout.Section>
      </Layout>
    </Page>
  );
}

function ConnectedAccount({ connection }: { connection: SellerConnectionView | null }) {
  const t = useT();
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
    ["settings.account.prefix", connection.leadPrefix ?? t("common.notSet")],
    [
      "settings.account.rate",
      connection.rateLimitPerMinute === null
        ? t("common.notSet")
        : t("settings.account.rateValue", { rate: connection.rateLimitPerMinute }),
    ],
    ["settings.account.apiVersion", connection.apiVersion ?? t("common.notSet")],
    ["settings.account.key", t("settings.account.keyValue", { last4: connection.keyLast4 })],
    ["settings.account.verifiedAt", connection.verifiedAt ? formatInstant(connection.verifiedAt) : t("common.notSet")],
  ];
  return (
    <Box padding="300" background="bg-surface-secondary" borderRadius="200">
      <BlockStack gap="200">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h3" variant="headingSm">
            {t("settings.account.title")}
          </Text>
          {connection.pausedReason ? (
            <Badge tone="critical">{t("settings.account.paused", { reason: translateCode(t, "paused", connection.pausedReason) })}</Badge>
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

/** One card of the settings page: a titled section of the layout. */
function SettingsSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Layout.Section>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {title}
          </Text>
          {children}
        </BlockStack>
      </Card>
    </Layout.Section>
  );
}
