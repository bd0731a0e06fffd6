/** Settings: how amounts are written, "229 MAD" or "229 DH" (the format table does the rest). */
import { ChoiceList } from "@shopify/polaris";
import { CURRENCY_LABELS } from "../../i18n/formats";
import { formatterFor } from "../../i18n";
import { useLocale, useT } from "../../i18n/react";
import { SettingsSection } from "./SettingsSection";
import type { SettingsSectionProps } from "./fields";

const EXAMPLE_CENTS = 22900;

export function DisplaySection({ form, set, errorText }: SettingsSectionProps) {
  const t = useT();
  const locale = useLocale();
  return (
    <SettingsSection id="display" title={t("settings.display.title")} description={t("settings.display.intro")}>
      <ChoiceList
        title={t("settings.currency.label")}
        name="currencyLabel"
        choices={CURRENCY_LABELS.map((currency) => ({
          value: currency,
          label: t(`settings.currency.${currency}`, {
            example: formatterFor(locale, { currency }).money(EXAMPLE_CENTS),
          }),
        }))}
        selected={[form.currencyLabel ?? "MAD"]}
        onChange={([value]) => set("currencyLabel")(value)}
        error={errorText("currencyLabel")}
      />
    </SettingsSection>
  );
}
