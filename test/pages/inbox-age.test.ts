/**
 * How long the oldest order has waited, as the to-do inbox, Anomalies and the send-all
 * confirmation write it: orders that came in moments ago read "under a minute" in words,
 * never "0 min"; from the first minute on, minutes, then hours, then days.
 */
import { describe, expect, it } from "vitest";
import { ageText } from "../../app/components/home/InboxCard";
import { formatterFor, t, type Language } from "../../app/i18n";

const age = (locale: Language, minutes: number) =>
  ageText(formatterFor(locale), (key, params) => t(locale, key, params), minutes);

describe("the oldest order's age", () => {
  it("GIVEN orders received under a minute ago WHEN the age is written THEN it says so in words, not 0 min", () => {
    expect(age("fr", 0)).toBe("moins d'une minute");
    expect(age("en", 0)).toBe("under a minute");
    expect(age("fr", 0)).not.toMatch(/\b0\b/);
  });

  it("GIVEN a minute or more WHEN the age is written THEN it counts minutes, then hours, then days", () => {
    expect(age("fr", 1)).toBe("1 min");
    expect(age("fr", 59)).toBe("59 min");
    expect(age("fr", 60)).toBe("1 h");
    expect(age("en", 3 * 24 * 60)).toBe("3 d");
    expect(age("fr", 3 * 24 * 60)).toBe("3 j");
  });

  it("GIVEN the inbox line's sentence WHEN the oldest came in just now THEN the French line reads as words", () => {
    expect(t("fr", "home.inbox.waiting", { age: age("fr", 0) })).toBe("la plus ancienne : moins d'une minute");
  });
});
