/**
 * One badge for where an order stands (models/order-stage), with the detail
 * behind it (the app's state, the call, the parcel, the lead) on hover.
 */
import { Badge, Tooltip } from "@shopify/polaris";
import { STAGE_TONES, type Stage } from "../../models/order-stage";
import { BADGE_TONES } from "../StatusBadge";
import { isMessageKey } from "../../i18n";
import { useT, type Translate } from "../../i18n/react";

export interface StageDetail {
  state: string;
  confirmationStatus: string | null;
  shippingStatus: string | null;
  leadRef: string | null;
}

const label = (t: Translate, prefix: string, value: string) => {
  const key = `${prefix}.${value}`;
  return isMessageKey(key) ? t(key) : value;
};

/** "In the app: Lead created · Call: Confirmed · Parcel: Not shipped · Lead ATB-1". */
export function stageDetailText(t: Translate, detail: StageDetail): string {
  const parts = [t("stage.detail.state", { value: label(t, "state", detail.state) })];
  if (detail.confirmationStatus)
    parts.push(t("stage.detail.call", { value: label(t, "confirmation", detail.confirmationStatus) }));
  if (detail.shippingStatus)
    parts.push(t("stage.detail.parcel", { value: label(t, "shipping", detail.shippingStatus) }));
  if (detail.leadRef) parts.push(t("stage.detail.lead", { ref: detail.leadRef }));
  return parts.join(" · ");
}

export function StageBadge({ stage, detail }: { stage: Stage; detail?: StageDetail }) {
  const t = useT();
  const badge = <Badge tone={BADGE_TONES[STAGE_TONES[stage]]}>{t(`stage.${stage}`)}</Badge>;
  if (!detail) return <span data-stage={stage}>{badge}</span>;
  return (
    <span data-stage={stage}>
      <Tooltip content={stageDetailText(t, detail)} dismissOnMouseOut>
        {badge}
      </Tooltip>
    </span>
  );
}
