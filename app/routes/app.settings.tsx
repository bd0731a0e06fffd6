/**
 * Settings, the Shopify way: annotated sections (what each is for on the left,
 * its fields on the right), App Bridge's contextual save bar while anything
 * differs from what is saved, one save for the whole page (a new key is
 * verified with the platform as part of it), and field errors in place.
 * Each section is a component of app/components/settings/.
 */
import { useEffect, useMemo, useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Banner, BlockStack, Layout, Page } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { env } from "../env.server";
import prisma from "../db.server";
import {
  loadSettingsPage,
  saveSettingsPage,
  sendReleasedFromSettings,
  type FieldErrors,
  type KeyErrorCode,
  type Release,
  type SettingsFormValues,
} from "../pages/settings.server";
import type { CurrencyLabel, MessageKey } from "../i18n";
import { useSetCurrency, useT } from "../i18n/react";
import { pageTitle } from "../i18n/page-title";
import { formText } from "../http/form";
import { UnsavedChangesBar } from "../components/UnsavedChanges";
import { fieldErrorText } from "../components/settings/fields";
import { ConnectionSection } from "../components/settings/ConnectionSection";
import { SendingSection } from "../components/settings/SendingSection";
import { CustomerHoldSection } from "../components/settings/CustomerHoldSection";
import { DeliveryOddsSection } from "../components/settings/DeliveryOddsSection";
import { WriteBackSection } from "../components/settings/WriteBackSection";
import { DisplaySection } from "../components/settings/DisplaySection";
import { FlowSection } from "../components/settings/FlowSection";
import { AdvancedSection } from "../components/settings/AdvancedSection";
import { CashSection } from "../components/settings/CashSection";
import { ContactMessageSection } from "../components/settings/ContactMessageSection";
import { MaintenanceSection } from "../components/settings/MaintenanceSection";
import { StorePairingSection } from "../components/settings/StorePairingSection";
import { loadPairingView, runPairingAction } from "../customers/pairing.server";
import { loadOddsModelStatus } from "../pages/delivery-odds.server";
import { AdFeedSection } from "../components/settings/AdFeedSection";
import { ReleaseModal } from "../components/orders/ReleaseModal";
import { loadAdFeedView, runAdFeedAction } from "../pages/ad-feed.server";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "settings.title");

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const [page, pairing, adFeed, oddsModel] = await Promise.all([
    loadSettingsPage(prisma, session.shop, { appUrl: env.SHOPIFY_APP_URL, defaultBaseUrl: env.SELLER_API_BASE_URL }),
    loadPairingView(prisma, session.shop, { defaultBaseUrl: env.SELLER_API_BASE_URL ?? null }),
    loadAdFeedView(prisma, session.shop),
    loadOddsModelStatus(prisma, session.shop),
  ]);
  return { ...page, pairing, adFeed, oddsModel };
});

export const action = withErrorReference(async ({ request }: ActionFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const form = await request.formData();
  const intent = formText(form, "intent");
  if (intent === "sendReleased") return sendReleasedFromSettings(prisma, session.shop, form);
  if (intent !== "save") {
    // The conversion feed's forms save at once too.
    const adFeed = await runAdFeedAction(prisma, session.shop, intent, (name) => formText(form, name), {
      admin,
      appUrl: env.SHOPIFY_APP_URL,
    });
    if (adFeed) return adFeed;
    // The store pairing's own forms (create, redeem, end a pairing) save at once, apart from the page's save.
    const pairing = await runPairingAction(prisma, session.shop, intent, (name) => formText(form, name), {
      defaultBaseUrl: env.SELLER_API_BASE_URL ?? null,
    });
    if (pairing) return pairing;
    throw new Response("Unknown intent", { status: 400 });
  }
  const values: SettingsFormValues = {};
  for (const [name, value] of form) {
    if (typeof value === "string" && name !== "intent") values[name] = value;
  }
  return saveSettingsPage(prisma, session.shop, values, { defaultBaseUrl: env.SELLER_API_BASE_URL });
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
/** Key errors shown on the platform address rather than on the key. */
const ADDRESS_ERRORS: KeyErrorCode[] = ["invalid_base_url", "no_base_url"];

/** What the form shows and posts: the settings, the key and the address (write-only fields start empty). */
function initialValues(data: { form: SettingsFormValues; baseUrl: string }): SettingsFormValues {
  return { ...data.form, eventsSecret: "", apiKey: "", baseUrl: data.baseUrl };
}

export default function Settings() {
  const data = useLoaderData<typeof loader>();
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
