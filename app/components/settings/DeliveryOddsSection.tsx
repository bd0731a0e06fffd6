/**
 * Settings: what the delivery odds decide before an order is sent (send all,
 * hold below a probability, hold when sending is expected to lose money), the
 * merchant's own cost of a failed order, the "Delivery odds scored" Flow
 * trigger, and what the shop's model was fitted on. The route owns the form state.
 */
import { BlockStack, Checkbox, ChoiceList, FormLayout, Text, TextField } from "@shopify/polaris";
import { useFormat, useT } from "../../i18n/react";
import { SettingsSection } from "./SettingsSection";
import type { SettingsSectionProps } from "./fields";
import type { OddsModelStatus } from "../../pages/delivery-odds.server";

export function DeliveryOddsSection({
  form,
  set,
  errorText,
  model,
}: SettingsSectionProps & { model?: OddsModelStatus | null }) {
  const t = useT();
  const format = useFormat();
  const policy = form["deliveryOdds.policy"] || "send_all";
  return (
    <SettingsSection id="delivery-odds" title={t("settings.odds.title")} description={t("settings.odds.help")}>
      <ChoiceList
        title={t("settings.odds.policy")}
        name="deliveryOdds.policy"
        choices={[
          {
            label: t("settings.odds.policy.send_all"),
            value: "send_all",
            helpText: t("settings.odds.policy.send_all.help"),
          },
          {
            label: t("settings.odds.policy.hold_below"),
            value: "hold_below",
            helpText: t("settings.odds.policy.hold_below.help"),
          },
          {
            label: t("settings.odds.policy.hold_negative_value"),
            value: "hold_negative_value",
            helpText: t("settings.odds.policy.hold_negative_value.help"),
          },
        ]}
        selected={[policy]}
        onChange={(selected) => set("deliveryOdds.policy")(selected[0] ?? "send_all")}
        error={errorText("deliveryOdds.policy")}
      />
      <FormLayout>
        <FormLayout.Group>
          <TextField
            label={t("settings.odds.minPercent")}
            name="deliveryOdds.minPercent"
            type="number"
            suffix="%"
            value={form["deliveryOdds.minPercent"] ?? ""}
            onChange={set("deliveryOdds.minPercent")}
            disabled={policy !== "hold_below"}
            autoComplete="off"
            error={errorText("deliveryOdds.minPercent")}
          />
          <TextField
            label={t("settings.odds.refusalCost")}
            helpText={t("settings.odds.refusalCost.help")}
            name="deliveryOdds.refusalCost"
            type="number"
            suffix={format.currency()}
            value={form["deliveryOdds.refusalCost"] ?? ""}
            onChange={set("deliveryOdds.refusalCost")}
            autoComplete="off"
            error={errorText("deliveryOdds.refusalCost")}
          />
        </FormLayout.Group>
      </FormLayout>
      <Checkbox
        label={t("settings.odds.flowTrigger")}
        checked={form["flowTriggers.deliveryOdds"] === "true"}
        onChange={set("flowTriggers.deliveryOdds")}
        error={errorText("flowTriggers.deliveryOdds")}
      />
      {model === undefined ? null : (
        <BlockStack gap="100">
          <Text as="p" variant="bodySm" tone="subdued">
            {!model || model.source === "prior"
              ? t("settings.odds.model.prior")
              : t("settings.odds.model.fitted", {
                  count: model.settled,
                  date: format.date(model.fittedAt.slice(0, 10)),
                })}
          </Text>
          {model?.quality ? (
            <Text as="p" variant="bodySm" tone="subdued">
              {t("settings.odds.model.quality", {
                auc: format.decimal(model.quality.auc, 2),
                brier: format.decimal(model.quality.brier, 3),
                count: model.quality.heldOut,
              })}
            </Text>
          ) : null}
        </BlockStack>
      )}
    </SettingsSection>
  );
}
