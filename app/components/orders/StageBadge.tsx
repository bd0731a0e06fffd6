/**
 * One badge for where an order stands (models/order-stage), with the detail
 * behind it (the app's state, the call, the parcel, the lead) on hover. An order
 * Shopify cancelled or refunded while its lead goes on leads with that, in the
 * critical tone: the platform's "confirmed" would read as "it ships, all good".
 */
import { Badge, Tooltip } from "@shopify/polaris";
import { STAGE_TONES, type ShopifyStop, type Stage } from "../../models/order-stage";
import { BADGE_TONES } from "../StatusBadge";
import { isMessageKey } from "../../i18n";
import { useLocale, useT, type Translate } from "../../i18n/react";

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

/** "Platform: confirmed": the stage, once Shopify's cancellation or refund leads. */
export function platformStageText(t: Translate, locale: string, stage: Stage): string {
  return t("stage.platform", { stage: t(`stage.${stage}`).toLocaleLowerCase(locale) });
}

export function StageBadge({
  stage,
  detail,
  shopify = null,
  showPlatform = false,
}: {
  stage: Stage;
  detail?: StageDetail;
  /** Cancelled or refunded in Shopify while the lead goes on (models/order-stage shopifyStopOf). */
  shopify?: ShopifyStop | null;
  /** Show the platform's stage beside Shopify's word (the order page; the list keeps it on hover). */
  showPlatform?: boolean;
}) {
  const t = useT();
  const locale = useLocale();
  const badge = shopify ? (
    <Badge tone="critical">{t(`order.shopify.${shopify}`)}</Badge>
  ) : (
    <Badge tone={BADGE_TONES[STAGE_TONES[stage]]}>{t(`stage.${stage}`)}</Badge>
  );
  const platform = shopify ? platformStageText(t, locale, stage) : null;
  const hover = detail ? [platform, stageDetailText(t, detail)].filter(Boolean).join(" · ") : null;
  const shown = hover ? (
    <Tooltip content={hover} dismissOnMouseOut>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
  return (
    <span data-stage={stage} data-shopify-stop={shopify ?? undefined}>
      {shown}
      {platform && showPlatform ? (
        <>
          {" "}
          <span data-platform-stage>
            <Badge tone={BADGE_TONES[STAGE_TONES[stage]]}>{platform}</Badge>
          </span>
        </>
      ) : null}
    </span>
  );
}
