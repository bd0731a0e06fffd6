/**
 * Settings, the Shopify way: annotated sections (what each is for on the left,
 * its fields on the right), App Bridge's contextual save bar while anything
 * differs from what is saved, one save for the whole page (a new key is
 * verified with the platform as part of it), and field errors in place.
 * Each section is a component of this folder.
 */
import { useEffect, useMemo, useState } from "react";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Banner, BlockStack, Layout, Page } from "@shopify/polaris";
import type { settingsPageData } from "../../pages/settings-page.server";
import type {
  FieldErrors,
  KeyErrorCode,
  Release,
  saveSettingsPage,
  SettingsFormValues,
} from "../../pages/settings.server";
import type { CurrencyLabel, MessageKey } from "../../i18n";
import { useSetCurrency, useT } from "../../i18n/react";
import { UnsavedChangesBar } from "../UnsavedChanges";
import { fieldErrorText } from "./fields";
import { ConnectionSection } from "./ConnectionSection";
import { SendingSection } from "./SendingSection";
import { CustomerHoldSection } from "./CustomerHoldSection";
import { DeliveryOddsSection } from "./DeliveryOddsSection";
import { WriteBackSection } from "./WriteBackSection";
import { DisplaySection } from "./DisplaySection";
import { FlowSection } from "./FlowSection";
import { AdvancedSection } from "./AdvancedSection";
import { CashSection } from "./CashSection";
import { ContactMessageSection } from "./ContactMessageSection";
import { MaintenanceSection } from "./MaintenanceSection";
import { StorePairingSection } from "./StorePairingSection";
import { AdFeedSection } from "./AdFeedSection";
import { ReleaseModal } from "../orders/ReleaseModal";

const KEY_ERRORS: Record<KeyErrorCode, MessageKey> = {
  missing_key: "settings.key.error.missingKey",
  invalid_key: "settings.key.error.invalidKey",
  invalid_base_url: "settings.key.error.invalidBaseUrl",
  no_base_url: "settings.key.error.noBaseUrl",
  key_required: "settings.key.error.keyRequired",
  // One message for every failure once the platform was called (see KeyErrorCode).
  not_verified: "settings.key.error.notVerified",
};
/** Key errors shown on the platform address rather than on the key. */
const ADDRESS_ERRORS: KeyErrorCode[] = ["invalid_base_url", "no_base_url"];

/** What the form shows and posts: the settings, the key and the address (write-only fields start empty). */
function initialValues(data: { form: SettingsFormValues; baseUrl: string }): SettingsFormValues {
  return { ...data.form, eventsSecret: "", apiKey: "", baseUrl: data.baseUrl };
}

export function SettingsPage() {
  const data = useLoaderData<typeof settingsPageData>();
  const t = useT();
  const shopify = useAppBridge();
  const setCurrency = useSetCurrency();
  // The page's save only; the store pairing's forms have their own fetcher.
  const fetcher = useFetcher<Awaited<ReturnType<typeof saveSettingsPage>>>({ key: "settings" });
  // By value: the loader runs again after every save, a failed one included, and the merchant's edits must survive that.
  const savedJson = JSON.stringify(initialValues(data));
  const saved = useMemo(() => JSON.parse(savedJson) as SettingsFormValues, [savedJson]);
  const [form, setForm] = useState<SettingsFormValues>(saved);
  // Held orders a looser delivery-odds policy would send: they go on the merchant's confirmation.
  const [release, setRelease] = useState<Release | null>(null);
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const saving = fetcher.state !== "idle";

  // What is saved changed (a save, a reload): the form starts from it again.
  useEffect(() => setForm(saved), [saved]);
  useEffect(() => {
    if (!result?.ok) return;
    // Saved: the key typed leaves the page, the form is what is saved now.
    setForm(saved);
    setCurrency(result.settings.currencyLabel as CurrencyLabel);
    setRelease(result.release && result.release.orders.length > 0 ? result.release : null);
    shopify.toast.show(
      result.keyChanged && result.connection
        ? t("settings.key.verified", { name: result.connection.name ?? "" })
        : t("settings.saved"),
    );
    // Once per answer (saved is read as it is then, after the loader ran again).
  }, [result]);

  const dirty = (Object.keys(form) as string[]).some((name) => form[name] !== saved[name]);
  const fieldErrors: FieldErrors = result && !result.ok ? result.fieldErrors : {};
  const keyError = result && !result.ok ? result.keyError : null;
  const errorText = (name: string) => fieldErrorText(t, fieldErrors[name]);
  const set = (name: string) => (value: string | boolean) =>
    setForm((current) => ({ ...current, [name]: typeof value === "boolean" ? String(value) : value }));
  const props = { form, set, errorText };
  const eventsSecretError = fieldErrors.eventsSecret
    ? t("settings.eventsSecret.weak", { min: fieldErrors.eventsSecret.min ?? 0 })
    : undefined;

  return (
    <Page title={t("settings.title")}>
      <UnsavedChangesBar
        id="settings-save-bar"
        dirty={dirty}
        saving={saving}
        onSave={() => fetcher.submit({ intent: "save", ...form }, { method: "post" })}
        onDiscard={() => setForm(saved)}
        saveLabel={t("common.save")}
        discardLabel={t("common.discard")}
      />
      <BlockStack gap="400">
        {keyError || Object.keys(fieldErrors).length > 0 ? (
          <Banner tone="critical" title={t("settings.error.title")}>
            {keyError ? <p>{t(KEY_ERRORS[keyError])}</p> : null}
          </Banner>
        ) : null}
        {result?.ok && result.keyStore && result.keyStore !== data.shop ? (
          <Banner tone="warning">
            <p>{t("settings.key.warning.otherStore", { store: result.keyStore })}</p>
          </Banner>
        ) : null}
        <Layout>
          <ConnectionSection
            connection={data.connection}
            apiKey={form.apiKey ?? ""}
            onApiKey={set("apiKey")}
            keyError={keyError && !ADDRESS_ERRORS.includes(keyError) ? t(KEY_ERRORS[keyError]) : undefined}
          />
          <SendingSection {...props} holdCodes={data.holdCodes} />
          <CustomerHoldSection {...props} />
          <DeliveryOddsSection {...props} model={data.oddsModel} />
          <StorePairingSection pairing={data.pairing} />
          <WriteBackSection {...props} />
          <CashSection {...props} />
          <DisplaySection {...props} />
          <ContactMessageSection {...props} />
          <FlowSection {...props} />
          <AdFeedSection feed={data.adFeed} />
          <AdvancedSection
            {...props}
            errorText={(name) => (name === "eventsSecret" ? eventsSecretError : errorText(name))}
            connection={data.connection}
            baseUrl={form.baseUrl ?? ""}
            onBaseUrl={set("baseUrl")}
            defaultBaseUrl={data.defaultBaseUrl}
            baseUrlError={keyError && ADDRESS_ERRORS.includes(keyError) ? t(KEY_ERRORS[keyError]) : undefined}
            eventsUrl={data.eventsUrl}
            hasEventsSecret={data.hasEventsSecret}
          />
          <MaintenanceSection />
        </Layout>
      </BlockStack>
      <ReleaseModal release={release} onClose={() => setRelease(null)} />
    </Page>
  );
}
