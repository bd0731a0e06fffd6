/**
 * Badges for an order link's state and its lead's confirmation / shipping
 * status, translated; the statuses' tones are the platform vocabulary's. Statuses
 * this app does not know are shown verbatim.
 */
import { Badge } from "@shopify/polaris";
import type { BadgeProps } from "@shopify/polaris";
import { isMessageKey } from "../i18n";
import { useT } from "../i18n/react";
import { statusTone, type Tone as AppTone } from "../vocabulary/platform-status";

type Tone = BadgeProps["tone"];

const LINK_STATE_TONES: Record<string, Tone> = {
  received: undefined,
  held: "attention",
  skipped: undefined,
  posting: "info",
  created: "success",
  damaged: "warning",
  invalid: "critical",
  retrying: "info",
  failed: "critical",
  cancelled: undefined,
};

/** The app's tones in Polaris' words: neutral is Polaris' default (no tone). */
export const BADGE_TONES: Record<AppTone, Tone> = {
  neutral: undefined,
  attention: "attention",
  critical: "critical",
  info: "info",
  success: "success",
  warning: "warning",
};

export type StatusKind = "state" | "confirmation" | "shipping";

/** A badge's Polaris tone; a status this app does not know is neutral. */
export const badgeToneOf = (kind: StatusKind, status: string): Tone =>
  kind === "state" ? LINK_STATE_TONES[status] : BADGE_TONES[statusTone(kind, status) ?? "neutral"];

export function StatusBadge({ kind, status }: { kind: StatusKind; status: string | null | undefined }) {
  const t = useT();
  if (!status) return null;
  const key = `${kind}.${status}`;
  const label = isMessageKey(key) ? t(key) : t("status.unknown", { status });
  return <Badge tone={badgeToneOf(kind, status)}>{label}</Badge>;
}

export const LinkStateBadge = ({ state }: { state: string }) => <StatusBadge kind="state" status={state} />;
export const ConfirmationBadge = ({ status }: { status: string | null }) => (
  <StatusBadge kind="confirmation" status={status} />
);
export const ShippingBadge = ({ status }: { status: string | null }) => <StatusBadge kind="shipping" status={status} />;
