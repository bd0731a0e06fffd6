/**
 * A shop's conversion feed as the merchant sets it in Settings: off until
 * switched on; the stage that counts (delivered by default) and how it is
 * named (a custom event by default, never Shopify's own checkout Purchase); the
 * negative outcomes as custom events (off by default); and whether orders with
 * no consent signal from the storefront are told from customer data alone (off
 * by default: only with consent). Pure.
 */
import { z } from "zod";
import {
  COUNTED_STAGES,
  EVENT_NAMINGS,
  NEGATIVE_STAGES,
  type CountedStage,
  type EventNaming,
  type FeedStage,
} from "../ad-platforms/conversion";

export interface FeedSettings {
  enabled: boolean;
  stage: CountedStage;
  naming: EventNaming;
  negativeOutcomes: boolean;
  withoutConsentSignal: boolean;
}

export const DEFAULT_FEED_SETTINGS: FeedSettings = {
  enabled: false,
  stage: "delivered",
  naming: "custom",
  negativeOutcomes: false,
  withoutConsentSignal: false,
};

const flag = z.enum(["true", "false"]).transform((v) => v === "true");
/** The form's fields (strings, as a form posts them). */
export const feedSettingsFormSchema = z.object({
  enabled: flag,
  stage: z.enum(COUNTED_STAGES),
  naming: z.enum(EVENT_NAMINGS),
  negativeOutcomes: flag,
  withoutConsentSignal: flag,
});

/** The stages the feed tells: the counted one, and the negative ones when asked. */
export function wantedStages(settings: Pick<FeedSettings, "stage" | "negativeOutcomes">): Set<FeedStage> {
  return new Set<FeedStage>([settings.stage, ...(settings.negativeOutcomes ? NEGATIVE_STAGES : [])]);
}

/** A stage stored by an older setting, read back as a known one (the default otherwise). */
export function storedStage(value: unknown): CountedStage {
  return (COUNTED_STAGES as readonly unknown[]).includes(value) ? (value as CountedStage) : DEFAULT_FEED_SETTINGS.stage;
}
export function storedNaming(value: unknown): EventNaming {
  return (EVENT_NAMINGS as readonly unknown[]).includes(value) ? (value as EventNaming) : DEFAULT_FEED_SETTINGS.naming;
}
