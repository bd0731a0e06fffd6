/**
 * Settings: when the Shopify order is marked paid (at delivery, or when the
 * platform pays the merchant), after how many days an unpaid parcel is overdue,
 * and the "Payment overdue" Flow trigger. The route owns the form state.
 */
import { Checkbox, ChoiceList, Text, TextField } from "@shopify/polaris";
import { useT } from "../../i18n/react";
import { SettingsSection } from "./SettingsSection";

export interface CashSectionProps {
  form: Record<string, string>;
  set: (name: string) => (value: string | boolean) => void;
  errorText: (name: string) => string | undefined;
}

export function CashSection({ form, set, errorText }: CashSectionProps) {
  const t = useT();
  const markPaidOn = form["writeBack.markPaid"] === "true";
  return (
    <SettingsSection id="cash" title={t("settings.cash.title")}>
      <ChoiceList
        title={t("settings.cash.markPaidWhen.label")}
        name="writeBack.markPaidWhen"
        choices={[
          {
            label: t("settings.cash.markPaidWhen.delivered"),
            value: "delivered",
          },
          { label: t("settings.cash.markPaidWhen.paid"), value: "paid" },
        ]}
        selected={[form["writeBack.markPaidWhen"] || "delivered"]}
        onChange={(selected) => set("writeBack.markPaidWhen")(selected[0] ?? "delivered")}
        disabled={!markPaidOn}
        error={errorText("writeBack.markPaidWhen")}
      />
      <Text as="p" variant="bodySm" tone="subdued">
        {markPaidOn ? t("settings.cash.markPaidWhen.help") : t("settings.cash.markPaidWhen.off")}
      </Text>
      <TextField
        label={t("settings.cash.overdueDays.label")}
        helpText={t("settings.cash.overdueDays.help")}
        name="paymentOverdueDays"
        type="number"
        value={form.paymentOverdueDays ?? ""}
        onChange={set("paymentOverdueDays")}
        autoComplete="off"
        error={errorText("paymentOverdueDays")}
      />
      <Checkbox
        label={t("settings.cash.flowTrigger")}
        checked={form["flowTriggers.paymentOverdue"] === "true"}
        onChange={set("flowTriggers.paymentOverdue")}
        error={errorText("flowTriggers.paymentOverdue")}
      />
    </SettingsSection>
  );
}
