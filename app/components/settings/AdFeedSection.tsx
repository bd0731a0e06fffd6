/**
 * Settings: the conversion feed (app/ad-feed/). Connect Meta and TikTok (an id
 * and an access token, checked with the platform before they are kept; a saved
 * token is shown by its last four characters only), then choose what is sent
 * and switch the feed on. Its own fetcher and saves: the page's save bar is
 * not touched.
 */
import { useEffect, useState } from "react";
import { useFetcher } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Checkbox,
  ChoiceList,
  Divider,
  InlineStack,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { CUSTOM_NAMES, type AdPlatform, type CountedStage } from "../../ad-platforms/conversion";
import type { AdFeedView, PlatformView } from "../../ad-feed/connection.server";
import type { AdFeedActionResult } from "../../pages/ad-feed.server";
import type { MessageKey } from "../../i18n";
import { useFormat, useT } from "../../i18n/react";
import { ShopifyErrorBanner } from "../ShopifyErrorBanner";
import { SettingsSection } from "./SettingsSection";

export function AdFeedSection({ feed }: { feed: AdFeedView }) {
  const t = useT();
  const shopify = useAppBridge();
  const fetcher = useFetcher<AdFeedActionResult>({ key: "settings-ad-feed" });
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const busy = (intent: string, platform?: AdPlatform) =>
    fetcher.state !== "idle" &&
    fetcher.formData?.get("intent") === intent &&
    (!platform || fetcher.formData?.get("platform") === platform);
  const submit = (fields: Record<string, string>) => fetcher.submit(fields, { method: "post" });

  const [settings, setSettings] = useState(feed.settings);
  useEffect(() => setSettings(feed.settings), [feed.settings]);
  useEffect(() => {
    if (!result?.ok) return;
    if (result.intent === "adFeedConnect")
      shopify.toast.show(t("settings.adFeed.connectedToast", { platform: t(`adFeed.platform.${result.platform}`) }));
    if (result.intent === "adFeedDisconnect")
      shopify.toast.show(t("settings.adFeed.disconnectedToast", { platform: t(`adFeed.platform.${result.platform}`) }));
    if (result.intent === "adFeedSave") shopify.toast.show(t("settings.adFeed.saved"));
  }, [result, shopify, t]);

  const pixelFailure = result && "pixelFailure" in result ? result.pixelFailure : null;
  const saveError = result?.intent === "adFeedSave" && !result.ok ? result.error : null;
  const set =
    <K extends keyof typeof settings>(key: K) =>
    (value: (typeof settings)[K]) =>
      setSettings((s) => ({ ...s, [key]: value }));

  return (
    <SettingsSection id="ad-feed" title={t("settings.adFeed.title")} description={t("settings.adFeed.help")}>
      <InlineStack gap="200" blockAlign="center">
        <Badge tone={feed.settings.enabled ? "success" : undefined}>
          {t(feed.settings.enabled ? "settings.adFeed.on" : "settings.adFeed.off")}
        </Badge>
        {feed.settings.enabled ? (
          <Text as="span" variant="bodySm" tone="subdued">
            {t(feed.pixelRegistered ? "settings.adFeed.pixel.added" : "settings.adFeed.pixel.missing")}
          </Text>
        ) : null}
      </InlineStack>
      {pixelFailure ? (
        <ShopifyErrorBanner
          failure={pixelFailure}
          work="storefrontPixel"
          onRetry={() => submit({ intent: "adFeedPixel" })}
          retrying={busy("adFeedPixel")}
        />
      ) : null}

      {(["meta", "tiktok"] as const).map((platform) => (
        <PlatformForm
          key={platform}
          platform={platform}
          saved={feed[platform]}
          result={
            (result?.intent === "adFeedConnect" || result?.intent === "adFeedDisconnect") &&
            result.platform === platform
              ? result
              : undefined
          }
          connecting={busy("adFeedConnect", platform)}
          disconnecting={busy("adFeedDisconnect", platform)}
          submit={submit}
        />
      ))}

      <Divider />
      <Text as="h3" variant="headingSm">
        {t("settings.adFeed.feed.title")}
      </Text>
      {saveError ? (
        <Banner tone="critical">
          <p>{t(`settings.adFeed.error.${saveError}`)}</p>
        </Banner>
      ) : null}
      <Checkbox label={t("settings.adFeed.enabled")} checked={settings.enabled} onChange={set("enabled")} />
      <Select
        label={t("settings.adFeed.stage")}
        options={(["confirmed", "shipped", "delivered"] as const).map((stage) => ({
          label: t(`settings.adFeed.stage.${stage}`),
          value: stage,
        }))}
        value={settings.stage}
        onChange={(value) => set("stage")(value as CountedStage)}
      />
      <ChoiceList
        title={t("settings.adFeed.naming")}
        choices={[
          { label: t("settings.adFeed.naming.custom", { event: CUSTOM_NAMES[settings.stage] }), value: "custom" },
          { label: t("settings.adFeed.naming.purchase"), value: "purchase" },
        ]}
        selected={[settings.naming]}
        onChange={(selected) => set("naming")(selected[0] === "purchase" ? "purchase" : "custom")}
      />
      <Checkbox
        label={t("settings.adFeed.negative")}
        checked={settings.negativeOutcomes}
        onChange={set("negativeOutcomes")}
      />
      <Checkbox
        label={t("settings.adFeed.withoutConsent")}
        helpText={t("settings.adFeed.withoutConsentHelp")}
        checked={settings.withoutConsentSignal}
        onChange={set("withoutConsentSignal")}
      />
      <InlineStack>
        <Button
          variant="primary"
          loading={busy("adFeedSave")}
          onClick={() =>
            submit({
              intent: "adFeedSave",
              enabled: String(settings.enabled),
              stage: settings.stage,
              naming: settings.naming,
              negativeOutcomes: String(settings.negativeOutcomes),
              withoutConsentSignal: String(settings.withoutConsentSignal),
            })
          }
        >
          {t("settings.adFeed.save")}
        </Button>
      </InlineStack>
    </SettingsSection>
  );
}

function PlatformForm({
  platform,
  saved,
  result,
  connecting,
  disconnecting,
  submit,
}: {
  platform: AdPlatform;
  saved: PlatformView | null;
  result: Extract<AdFeedActionResult, { intent: "adFeedConnect" | "adFeedDisconnect" }> | undefined;
  connecting: boolean;
  disconnecting: boolean;
  submit: (fields: Record<string, string>) => void;
}) {
  const t = useT();
  const format = useFormat();
  const [id, setId] = useState(saved?.id ?? "");
  const [token, setToken] = useState("");
  useEffect(() => {
    if (result?.ok) {
      setToken("");
      setId(result.view[platform]?.id ?? "");
    }
  }, [result, platform]);
  const name = t(`adFeed.platform.${platform}`);
  const error = result && !result.ok ? result.error : null;
  const idError = error === "invalid_id" ? t(`settings.adFeed.error.invalid_id.${platform}` as MessageKey) : undefined;
  const tokenError =
    error && error !== "invalid_id"
      ? t(`settings.adFeed.error.${error}`, {
          platform: name,
          message: result && !result.ok ? (result.platformMessage ?? "") : "",
        })
      : undefined;

  return (
    <Box padding="300" background="bg-surface-secondary" borderRadius="200">
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h3" variant="headingSm">
            {t(`settings.adFeed.${platform}.title`)}
          </Text>
          {saved ? (
            <Badge tone="success">
              {saved.name
                ? t("settings.adFeed.connected", { name: saved.name })
                : t("settings.adFeed.connectedUnnamed")}
            </Badge>
          ) : null}
        </InlineStack>
        {saved?.refusedLocal ? (
          <Banner tone="critical">
            <p>{t("settings.adFeed.tokenRefused", { platform: name, date: format.dateTime(saved.refusedLocal) })}</p>
          </Banner>
        ) : null}
        <TextField
          label={t(`settings.adFeed.${platform}.id`)}
          helpText={t(`settings.adFeed.${platform}.idHelp`)}
          name={`adFeed.${platform}.id`}
          value={id}
          onChange={setId}
          autoComplete="off"
          error={idError}
        />
        <TextField
          label={t(`settings.adFeed.${platform}.token`)}
          helpText={
            saved?.verifiedLocal
              ? saved.tokenLast4
                ? t("settings.adFeed.tokenSaved", { last4: saved.tokenLast4, date: format.date(saved.verifiedLocal) })
                : t("settings.adFeed.tokenSavedNoDigits", { date: format.date(saved.verifiedLocal) })
              : t(`settings.adFeed.${platform}.tokenHelp`)
          }
          name={`adFeed.${platform}.token`}
          type="password"
          value={token}
          onChange={setToken}
          autoComplete="off"
          error={tokenError}
        />
        <InlineStack gap="200">
          <Button loading={connecting} onClick={() => submit({ intent: "adFeedConnect", platform, id, token })}>
            {t(saved ? "settings.adFeed.checkAgain" : "settings.adFeed.connect", { platform: name })}
          </Button>
          {saved ? (
            <Button
              tone="critical"
              variant="plain"
              loading={disconnecting}
              onClick={() => submit({ intent: "adFeedDisconnect", platform })}
            >
              {t("settings.adFeed.disconnect", { platform: name })}
            </Button>
          ) : null}
        </InlineStack>
      </BlockStack>
    </Box>
  );
}
