/**
 * Settings: the WhatsApp message sent to customers from an order (models/contact-message.ts),
 * its language and the shop's wording of each. Its own component so the Settings route
 * stays a list of sections; the route owns the form state.
 */
import { BlockStack, Select, TextField } from "@shopify/polaris";
import {
  DEFAULT_CONTACT_MESSAGES,
  MAX_CONTACT_MESSAGE_CHARS,
  type ContactLanguage,
} from "../../models/contact-message";
import { useT } from "../../i18n/react";
import { SettingsSection } from "./SettingsSection";

export interface ContactMessageSectionProps {
  form: Record<string, string>;
  set: (name: string) => (value: string | boolean) => void;
  errorText: (name: string) => string | undefined;
}

/** BCP 47 tags of the message languages: French, and Moroccan Arabic written in Latin letters. */
const MESSAGE_LANG: Record<ContactLanguage, string> = { fr: "fr", darija: "ary-Latn" };

export function ContactMessageSection({ form, set, errorText }: ContactMessageSectionProps) {
  const t = useT();
  const field = (language: ContactLanguage) => {
    const name = `contactMessage.${language}`;
    // The message is written for customers in its own language, whatever the admin's.
    return (
      <div lang={MESSAGE_LANG[language]}>
        <TextField
          label={t(`settings.contact.${language}`)}
          name={name}
          value={form[name] ?? ""}
          onChange={set(name)}
          multiline={3}
          maxLength={MAX_CONTACT_MESSAGE_CHARS}
          showCharacterCount
          autoComplete="off"
          error={errorText(name)}
          labelAction={
            form[name] === DEFAULT_CONTACT_MESSAGES[language]
              ? undefined
              : {
                  content: t("settings.contact.reset"),
                  onAction: () => set(name)(DEFAULT_CONTACT_MESSAGES[language]),
                }
          }
        />
      </div>
    );
  };
  return (
    <SettingsSection id="contact-message" title={t("settings.contact.title")} description={t("settings.contact.help")}>
      <div data-section="contact-message">
        <BlockStack gap="300">
          <Select
            label={t("settings.contact.language")}
            name="contactMessage.language"
            options={[
              { label: t("settings.contact.language.fr"), value: "fr" },
              { label: t("settings.contact.language.darija"), value: "darija" },
            ]}
            value={form["contactMessage.language"] ?? "fr"}
            onChange={set("contactMessage.language")}
            error={errorText("contactMessage.language")}
          />
          {field("fr")}
          {field("darija")}
        </BlockStack>
      </div>
    </SettingsSection>
  );
}
