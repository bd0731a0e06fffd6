/** Reaching the customer: tel: and wa.me links from a stored mobile, the shop's message filled. */
import { describe, expect, it } from "vitest";
import {
  contactLinks,
  DEFAULT_CONTACT_MESSAGES,
  fillContactMessage,
  internationalMobile,
  LEGACY_DEFAULT_CONTACT_MESSAGES,
} from "../../app/models/contact-message";
import { readShopSettings } from "../../app/models/shop-settings";

describe("contact links", () => {
  it("writes a Moroccan mobile in international form for tel: and WhatsApp", () => {
    expect(internationalMobile("0612345678")).toBe("212612345678");
    expect(internationalMobile("0712345678")).toBe("212712345678");
    for (const phone of [
      null,
      undefined,
      "",
      "0512345678",
      "612345678",
      "+212612345678",
      "[redacted]",
      "06123456789",
    ]) {
      expect(internationalMobile(phone), String(phone)).toBeNull();
    }
    const links = contactLinks("0612345678", "Salam Salma, wach t3awdi?");
    expect(links).toEqual({
      tel: "tel:+212612345678",
      whatsapp: "https://wa.me/212612345678?text=Salam%20Salma%2C%20wach%20t3awdi%3F",
      display: "+212 6 12 34 56 78",
    });
    expect(contactLinks(null, "x")).toBeNull();
  });

  it("fills the message with the order's facts and leaves no placeholder when one is unknown", () => {
    const facts = { name: "Salma", order: "#1019", amount: "229,00 DH", city: "Casablanca" };
    expect(fillContactMessage(DEFAULT_CONTACT_MESSAGES.fr, facts)).toBe(
      "Bonjour Salma, nous avons bien reçu votre commande #1019 de 229,00 DH, à livrer à Casablanca. Pouvez-vous nous confirmer la commande et l'adresse ? Merci !",
    );
    expect(fillContactMessage(DEFAULT_CONTACT_MESSAGES.darija, facts)).toContain(
      "Salam Salma, wsslatna la commande dyalk #1019 b 229,00 DH",
    );
    expect(fillContactMessage("Salam {name}, {order} {unknown}", { order: "#1" })).toBe("Salam, #1 {unknown}");
  });

  it("GIVEN an order without an amount in MAD WHEN its message is filled THEN the sentence leaves the amount out, no hole", () => {
    const facts = { name: "Karima", order: "#1028", amount: null, city: "Marrakech" };
    expect(fillContactMessage(DEFAULT_CONTACT_MESSAGES.fr, facts)).toBe(
      "Bonjour Karima, nous avons bien reçu votre commande #1028, à livrer à Marrakech. Pouvez-vous nous confirmer la commande et l'adresse ? Merci !",
    );
    expect(fillContactMessage(DEFAULT_CONTACT_MESSAGES.darija, facts)).toBe(
      "Salam Karima, wsslatna la commande dyalk #1028, ghadi twsslek l Marrakech. Wach tconfirmi lina la commande w l'adresse? Choukran bzaf!",
    );
  });

  it("GIVEN no fact but the order WHEN the message is filled THEN every sentence still reads whole", () => {
    expect(fillContactMessage(DEFAULT_CONTACT_MESSAGES.fr, { order: "#7" })).toBe(
      "Bonjour, nous avons bien reçu votre commande #7. Pouvez-vous nous confirmer la commande et l'adresse ? Merci !",
    );
    expect(fillContactMessage(DEFAULT_CONTACT_MESSAGES.darija, { order: "#7", city: "  " })).toBe(
      "Salam, wsslatna la commande dyalk #7. Wach tconfirmi lina la commande w l'adresse? Choukran bzaf!",
    );
  });

  it("GIVEN a merchant's own wording without brackets WHEN a fact is unknown THEN the fact goes with the word that introduces it", () => {
    expect(
      fillContactMessage("Salam {name}, commande {order} b {amount}, l {city}. Choukran", {
        name: "Salma",
        order: "#9",
        amount: "",
        city: "Fès",
      }),
    ).toBe("Salam Salma, commande #9, l Fès. Choukran");
    expect(fillContactMessage("Votre commande {order} de {amount} part pour {city}.", { order: "#9" })).toBe(
      "Votre commande #9 part.",
    );
    // A word that only looks like a connector inside another word is kept ("l'adresse").
    expect(fillContactMessage("Confirmez l'adresse de {city}", { city: "Rabat" })).toBe("Confirmez l'adresse de Rabat");
  });

  it("GIVEN a bracketed part WHEN all its facts are known THEN it is kept without its brackets", () => {
    expect(fillContactMessage("Commande {order}[ de {amount}]!", { order: "#1", amount: "99 DH" })).toBe(
      "Commande #1 de 99 DH!",
    );
    expect(fillContactMessage("Commande {order}[ de {amount} pour {city}]!", { order: "#1", amount: "99 DH" })).toBe(
      "Commande #1!",
    );
  });

  it("reads a shop's saved copy of the old default as today's default (no hole either)", () => {
    const settings = readShopSettings(JSON.stringify({ contactMessage: { ...LEGACY_DEFAULT_CONTACT_MESSAGES } }));
    expect(settings.contactMessage.fr).toBe(DEFAULT_CONTACT_MESSAGES.fr);
    expect(settings.contactMessage.darija).toBe(DEFAULT_CONTACT_MESSAGES.darija);
  });

  it("is a shop setting with French by default, and a broken one falls back to the defaults", () => {
    expect(readShopSettings(null).contactMessage).toEqual({ language: "fr", ...DEFAULT_CONTACT_MESSAGES });
    expect(
      readShopSettings(JSON.stringify({ contactMessage: { language: "darija", fr: "Bonjour {name}" } })).contactMessage,
    ).toEqual({
      language: "darija",
      fr: "Bonjour {name}",
      darija: DEFAULT_CONTACT_MESSAGES.darija,
    });
    expect(readShopSettings(JSON.stringify({ contactMessage: { language: "klingon" } })).contactMessage.language).toBe(
      "fr",
    );
    expect(readShopSettings(JSON.stringify({ contactMessage: { fr: "x".repeat(501) } })).contactMessage.fr).toBe(
      DEFAULT_CONTACT_MESSAGES.fr,
    );
  });
});
