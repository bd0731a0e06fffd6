/**
 * The message a merchant sends a customer on WhatsApp before shipping (to confirm a
 * cash-on-delivery order), in French or in Moroccan Darija written in Latin
 * letters, as the shop set it in Settings. Placeholders: {name}, {order},
 * {amount}, {city}; a part in square brackets ("[ de {amount}]") is left out
 * whole when one of its facts is unknown. Pure: the pages fill it in the browser.
 */
export const CONTACT_LANGUAGES = ["fr", "darija"] as const;
export type ContactLanguage = (typeof CONTACT_LANGUAGES)[number];

/** The customer-facing defaults (not the admin's language: what the customer reads). */
export const DEFAULT_CONTACT_MESSAGES: Record<ContactLanguage, string> = {
  fr: "Bonjour {name}, nous avons bien reçu votre commande {order}[ de {amount}][, à livrer à {city}]. Pouvez-vous nous confirmer la commande et l'adresse ? Merci !",
  darija:
    "Salam {name}, wsslatna la commande dyalk {order}[ b {amount}][, ghadi twsslek l {city}]. Wach tconfirmi lina la commande w l'adresse? Choukran bzaf!",
};

/** The defaults before optional parts existed: a shop that saved them unchanged reads today's. */
export const LEGACY_DEFAULT_CONTACT_MESSAGES: Record<ContactLanguage, string> = {
  fr: "Bonjour {name}, nous avons bien reçu votre commande {order} de {amount}, à livrer à {city}. Pouvez-vous nous confirmer la commande et l'adresse ? Merci !",
  darija:
    "Salam {name}, wsslatna la commande dyalk {order} b {amount}, ghadi twsslek l {city}. Wach tconfirmi lina la commande w l'adresse? Choukran bzaf!",
};

export const MAX_CONTACT_MESSAGE_CHARS = 500;

export interface ContactFacts {
  name?: string | null;
  order?: string | null;
  amount?: string | null;
  city?: string | null;
}

type Fact = keyof ContactFacts;
const PLACEHOLDER = /\{(name|order|amount|city)\}/g;
/** A bracketed part of the template: kept only when every fact it names is known. */
const OPTIONAL_PART = /\[([^[\]]*)\]/g;
/**
 * Words that introduce a fact in French, Darija and English ("de {amount}", "b {amount}",
 * "l {city}"): a merchant's own wording without brackets loses the word with an unknown fact.
 */
const CONNECTORS = "de du à a au en pour par b l f fi of for to at in".split(" ");
const SLOT = new RegExp(`(\\s(?:${CONNECTORS.join("|")}))?(\\s?)\\{(name|order|amount|city)\\}`, "giu");

/**
 * The template with its facts filled. An unknown fact never leaves a hole: its bracketed
 * part goes whole, otherwise the fact goes with the word that introduces it, and the
 * punctuation around is tidied ("votre commande #1028, à livrer à Marrakech").
 */
export function fillContactMessage(template: string, facts: ContactFacts): string {
  const value = (key: string) => facts[key as Fact]?.trim() || "";
  const known = (part: string) => [...part.matchAll(PLACEHOLDER)].every(([, key]) => value(key) !== "");
  return template
    .replace(OPTIONAL_PART, (_, part: string) => (known(part) ? part : ""))
    .replace(SLOT, (_, connector: string | undefined, space: string, key: string) =>
      value(key) ? `${connector ?? ""}${space}${value(key)}` : "",
    )
    .replace(/ {2,}/g, " ")
    .replace(/ ([,.])/g, "$1")
    .replace(/,([,.])/g, "$1")
    .replace(/^[\s,]+/, "")
    .trim();
}

/** A stored Moroccan mobile (06/07 and 8 digits) in international form, "212612345678"; null otherwise. */
export function internationalMobile(phone: string | null | undefined): string | null {
  const match = phone ? /^0([67]\d{8})$/.exec(phone.trim()) : null;
  return match ? `212${match[1]}` : null;
}

export interface ContactLinks {
  /** tel:+212612345678 */
  tel: string;
  /** https://wa.me/212612345678?text=... */
  whatsapp: string;
  /** +212 6 12 34 56 78, for reading. */
  display: string;
}

export function contactLinks(phone: string | null | undefined, message: string): ContactLinks | null {
  const international = internationalMobile(phone);
  if (!international) return null;
  const n = international.slice(3);
  return {
    tel: `tel:+${international}`,
    whatsapp: `https://wa.me/${international}${message ? `?text=${encodeURIComponent(message)}` : ""}`,
    display: `+212 ${n[0]} ${n.slice(1, 3)} ${n.slice(3, 5)} ${n.slice(5, 7)} ${n.slice(7, 9)}`,
  };
}
