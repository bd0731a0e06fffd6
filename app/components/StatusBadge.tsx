/**
 * Badges for an order link's state and its lead's confirmation / shipping
 * status, translated. Statuses this app does not know are shown verbatim.
 */
import { Badge } from "@shopify/polaris";
import type { BadgeProps } from "@shopify/polaris";
import { isMessageKey } from "../i18n";
import { useT } from "../i18n/react";

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

const CONFIRMATION_TONES: Record<string, Tone> = {
  new: "info",
  callback: "attention",
  no_answer_1: "attention",
  no_answer_2: "attention",
  no_answer_3: "attention",
  confirmed: "success",
  canceled: "critical",
  wrong: "critical",
  fake: "critical",
  duplicate: "critical",
};

const SHIPPING_TONES: Record<string, Tone> = {
  pending: undefined,
  picked_up: "info",
  shipped: "info",
  delivered: "success",
  paid: "success",
  returned: "critical",
  canceled: "critical",
};

export type StatusKind = "state" | "confirmation" | "shipping";

const TONES: Record<StatusKind, Record<string, Tone>> = {
  state: LINK_STATE_TONES,
  confirmation: CONFIRMATION_TONES,
  shipping: SHIPPING_TONES,
};

export function StatusBadge({ kind, status }: { kind: StatusKind; status: string | null | undefined }) {
  const t = useT();
  if (!status) return null;
  const key = `${kind}.${status}`;
  const label = isMessageKey(key) ? t(key) : t("status.unknown", { status });
  return <Badge tone={TONES[kind][status]}>{label}</Badge>;
}

export const LinkStateBadge = ({ state }: { state: string }) => <StatusBadge kind="state" status={state} />;
export const ConfirmationBadge = ({ status }: { status: string | null }) => (
  <StatusBadge kind="confirmation" status={status} />
);
export const ShippingBadge = ({ status }: { status: string | null }) => <StatusBadge kind="shipping" status={status} />;
