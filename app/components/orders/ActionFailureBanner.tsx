/** A refused merchant action on the order and Anomalies pages: what Shopify or the fix refused, in the reader's words. */
import { Banner } from "@shopify/polaris";
import type { FixFailureCode } from "../../pages/anomalies.server";
import { useT } from "../../i18n/react";
import { fixErrorText } from "./text";

export function ActionFailureBanner({ error }: { error: FixFailureCode | "shopify_failed" }) {
  const t = useT();
  return (
    <Banner tone="critical">
      <p>{error === "shopify_failed" ? t("order.duplicate.shopifyFailed") : fixErrorText(t, error)}</p>
    </Banner>
  );
}
