/**
 * What every Settings section receives from the page: the form's values (by
 * the setting's path, "writeBack.tags"), a setter, and each field's error in
 * the merchant's language. Checkboxes post "true" or "false".
 */
import type { ReactNode } from "react";
import { Checkbox } from "@shopify/polaris";
import type { FieldError } from "../../pages/settings.server";
import type { Translate } from "../../i18n/react";

export interface SettingsSectionProps {
  form: Record<string, string>;
  set: (name: string) => (value: string | boolean) => void;
  errorText: (name: string) => string | undefined;
}

export function fieldErrorText(t: Translate, error: FieldError | undefined): string | undefined {
  if (!error) return undefined;
  if (error.code === "min") return t("settings.field.min", { min: error.min ?? 0 });
  if (error.code === "max") return t("settings.field.max", { max: error.max ?? 0 });
  if (error.code === "integer") return t("settings.field.integer");
  if (error.code === "required") return t("settings.field.required");
  return t("settings.field.invalid");
}

export function SettingCheckbox({
  name,
  label,
  helpText,
  form,
  set,
  errorText,
}: SettingsSectionProps & { name: string; label: string; helpText?: ReactNode }) {
  return (
    <Checkbox
      label={label}
      helpText={helpText}
      checked={form[name] === "true"}
      onChange={set(name)}
      error={errorText(name)}
    />
  );
}
