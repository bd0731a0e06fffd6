/**
 * Reach the customer in one tap: the phone as a tel: link and WhatsApp (wa.me)
 * with the shop's prepared message, filled with the order's facts. Nothing for an
 * order without a usable Moroccan mobile, or whose customer was erased.
 */
import { InlineStack, Link, Text } from "@shopify/polaris";
import { contactLinks, fillContactMessage, type ContactFacts, type ContactLanguage } from "../../models/contact-message";
import { useT } from "../../i18n/react";

/** The shop's message settings, as loaders hand them to pages. */
export interface ContactSettings {
  language: ContactLanguage;
  templates: Record<ContactLanguage, string>;
}

interface Props {
  phone: string | null | undefined;
  facts: ContactFacts;
  contact: ContactSettings;
  /** The order, for the links' accessible names in lists. */
  orderName?: string;
  /** Also show the number itself (the order page and the Customer card). */
  showNumber?: boolean;
  /** Also offer the message in the other language. */
  bothLanguages?: boolean;
}

export function ContactLinks({ phone, facts, contact, orderName, showNumber = false, bothLanguages = false }: Props) {
  const t = useT();
  const links = contactLinks(phone, fillContactMessage(contact.templates[contact.language], facts));
  if (!links) return null;
  const other: ContactLanguage = contact.language === "fr" ? "darija" : "fr";
  const otherLinks = bothLanguages ? contactLinks(phone, fillContactMessage(contact.templates[other], facts)) : null;
  const named = (key: "contact.call" | "contact.whatsapp") => (orderName ? t(`${key}.order`, { order: orderName }) : undefined);
  return (
    <span data-contact>
      <InlineStack gap="200" blockAlign="center" wrap>
        {showNumber ? (
          <Text as="span" variant="bodyMd">
            <span data-contact-number>{links.display}</span>
          </Text>
        ) : null}
        <span data-contact-call>
          <Link url={links.tel} accessibilityLabel={named("contact.call")}>
            {t("contact.call")}
          </Link>
        </span>
        <span data-contact-whatsapp>
          <Link url={links.whatsapp} target="_blank" accessibilityLabel={named("contact.whatsapp")}>
            {t("contact.whatsapp")}
          </Link>
        </span>
        {otherLinks ? (
          <span data-contact-whatsapp-other>
            <Link url={otherLinks.whatsapp} target="_blank">
              {t(`contact.whatsappIn.${other}`)}
            </Link>
          </span>
        ) : null}
      </InlineStack>
    </span>
  );
}
