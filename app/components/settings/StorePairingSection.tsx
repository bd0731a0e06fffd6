/**
 * Settings: the stores paired with this one for sharing delivery records
 * (app/customers/pairing.server.ts). Lists them with whether they share now,
 * creates a one-time code to enter in another store, enters another store's
 * code, and ends a pairing. Its own fetcher: the settings form is not touched.
 */
import { useEffect, useState } from "react";
import { useFetcher } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Badge, Banner, BlockStack, Box, Button, InlineStack, Text, TextField } from "@shopify/polaris";
import type { PairingActionResult, PairingView, RedeemError } from "../../customers/pairing.server";
import type { PairStatus } from "../../customers/pairing";
import type { MessageKey } from "../../i18n";
import { useFormat, useT } from "../../i18n/react";
import { SettingsSection } from "./SettingsSection";

const STATUS_TEXT: Record<PairStatus, MessageKey> = {
  sharing: "settings.pairing.status.sharing",
  off_here: "settings.pairing.status.off_here",
  off_there: "settings.pairing.status.off_there",
  not_connected: "settings.pairing.status.not_connected",
  other_account: "settings.pairing.status.other_account",
  other_platform: "settings.pairing.status.other_platform",
};

const REDEEM_ERROR_TEXT: Record<RedeemError, MessageKey> = {
  invalid_code: "settings.pairing.error.invalid_code",
  own_code: "settings.pairing.error.own_code",
  not_connected: "settings.pairing.error.not_connected",
  other_account: "settings.pairing.error.other_account",
  other_platform: "settings.pairing.error.other_platform",
};

export function StorePairingSection({ pairing }: { pairing: PairingView }) {
  const t = useT();
  const format = useFormat();
  const shopify = useAppBridge();
  const fetcher = useFetcher<PairingActionResult>({ key: "settings-pairing" });
  const [code, setCode] = useState("");
  const result = fetcher.data;
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    if (result?.intent === "redeemPairingCode" && result.ok) {
      setCode("");
      shopify.toast.show(
        t(result.already ? "settings.pairing.already" : "settings.pairing.joined", { store: result.peer }),
      );
    }
    if (result?.intent === "endPairing" && result.ok)
      shopify.toast.show(t("settings.pairing.ended", { store: result.peer }));
  }, [result, shopify, t]);

  const created = result?.intent === "createPairingCode" ? result : undefined;
  const refused = result?.intent === "redeemPairingCode" && !result.ok ? result.error : undefined;
  const notPaired = result?.intent === "endPairing" && !result.ok ? result.peer : undefined;
  const submit = (fields: Record<string, string>) => fetcher.submit(fields, { method: "post" });

  return (
    <SettingsSection id="store-pairing" title={t("settings.pairing.title")} description={t("settings.pairing.help")}>
      {refused ? (
        <Banner tone="critical">
          <p>{t(REDEEM_ERROR_TEXT[refused])}</p>
        </Banner>
      ) : null}
      {notPaired ? (
        <Banner tone="warning">
          <p>{t("settings.pairing.notPaired", { store: notPaired })}</p>
        </Banner>
      ) : null}

      {pairing.peers.length === 0 ? (
        <Text as="p" tone="subdued">
          {t("settings.pairing.none")}
        </Text>
      ) : (
        <BlockStack gap="200">
          {pairing.peers.map((peer) => (
            <Box key={peer.shop} padding="300" background="bg-surface-secondary" borderRadius="200">
              <InlineStack align="space-between" blockAlign="center" gap="200">
                <BlockStack gap="100">
                  <Text as="span" variant="bodyMd" fontWeight="semibold">
                    <span data-paired-store={peer.shop}>{peer.shop}</span>
                  </Text>
                  <Text as="span" variant="bodySm" tone="subdued">
                    {t("settings.pairing.since", {
                      date: format.date(peer.sinceLocal),
                    })}
                  </Text>
                  <span>
                    <Badge tone={peer.status === "sharing" ? "success" : "attention"}>
                      {t(STATUS_TEXT[peer.status])}
                    </Badge>
                  </span>
                </BlockStack>
                <Button
                  tone="critical"
                  variant="plain"
                  disabled={busy}
                  onClick={() => submit({ intent: "endPairing", peer: peer.shop })}
                >
                  {t("settings.pairing.end")}
                </Button>
              </InlineStack>
            </Box>
          ))}
        </BlockStack>
      )}

      {created ? (
        <Box padding="300" background="bg-surface-secondary" borderRadius="200">
          <BlockStack gap="100">
            <Text as="h3" variant="headingSm">
              {t("settings.pairing.code.title")}
            </Text>
            <Text as="p" variant="headingLg">
              <span data-pairing-code style={{ fontFamily: "monospace", letterSpacing: "0.08em" }}>
                {created.code}
              </span>
            </Text>
            <Text as="p" variant="bodySm" tone="subdued">
              {t("settings.pairing.code.help", {
                time: format.dateTime(created.expiresLocal),
              })}
            </Text>
          </BlockStack>
        </Box>
      ) : pairing.codeExpiresLocal ? (
        <Text as="p" variant="bodySm" tone="subdued">
          {t("settings.pairing.code.waiting", {
            time: format.dateTime(pairing.codeExpiresLocal),
          })}
        </Text>
      ) : null}
      <InlineStack>
        <Button
          onClick={() => submit({ intent: "createPairingCode" })}
          loading={busy && fetcher.formData?.get("intent") === "createPairingCode"}
        >
          {t("settings.pairing.create")}
        </Button>
      </InlineStack>
      <TextField
        label={t("settings.pairing.enter.label")}
        value={code}
        onChange={setCode}
        autoComplete="off"
        error={refused ? t(REDEEM_ERROR_TEXT[refused]) : undefined}
        connectedRight={
          <Button
            variant="primary"
            disabled={!code.trim()}
            loading={busy && fetcher.formData?.get("intent") === "redeemPairingCode"}
            onClick={() => submit({ intent: "redeemPairingCode", code })}
          >
            {t("settings.pairing.enter.submit")}
          </Button>
        }
      />
    </SettingsSection>
  );
}
