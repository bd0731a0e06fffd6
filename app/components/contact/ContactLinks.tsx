/**
 * Reach the customer in one tap: the phone as a tel: link and WhatsApp (wa.me)
 * with the shop's prepared message, filled with the order's facts. Nothing for an
 * order without a usable Moroccan mobile, or whose customer was erased.
 */
import { InlineStack, Link, Text } from "@shopify/polaris";
import {
  contactLinks,
  fillContactMessage,
  type ContactFacts,
  type ContactLanguage,
} from "../../models/contact-message";
import { formatterFor } from "../../i18n";
import { useT } from "../../i18n/react";

// The customer's message is in French or Darija whatever the merchant reads: its amount is
// written as Moroccan customers read prices, French digits and DH ("229 DH", "229,50 DH").
const customerMoney = formatterFor("fr", { currency: "DH" });

/** An order's amount (cents) as the customer's message writes it. */
export const customerAmount = (cents: number): string => customerMoney.money(cents);

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

/** The message language the merchant can switch to from the chosen one. */
const OTHER_MESSAGE_LANGUAGE: Record<ContactLanguage, ContactLanguage> = { fr: "darija", darija: "fr" };

export function ContactLinks({ phone, facts, contact, orderName, showNumber = false, bothLanguages = false }: Props) {
  const t = useT();
  const links = contactLinks(phone, fillContactMessage(contact.templates[contact.language], facts));
  if (!links) return null;
  const other = OTHER_MESSAGE_LANGUAGE[contact.language];
  const otherLinks = bothLanguages ? contactLinks(phone, fillContactMessage(contact.templates[other], facts)) : null;
  const named = (key: "contact.call" | "contact.whatsapp") =>
    orderName ? t(`${key}.order`, { order: orderName }) : undefined;
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
