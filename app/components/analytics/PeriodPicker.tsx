/** 7 / 30 / 90 days or a custom run of days; the chosen period lives in the URL. */
import { useState } from "react";
import { Form, useNavigate } from "@remix-run/react";
import { BlockStack, Button, ButtonGroup, Card, InlineStack, Text, TextField } from "@shopify/polaris";
import { useFormat, useT, zoneName } from "../../i18n/react";
import { PRESETS, type Period } from "../../analytics/period";

export function PeriodPicker({ period, timeZone }: { period: Period; timeZone: string }) {
  const t = useT();
  const format = useFormat();
  const navigate = useNavigate();
  const [from, setFrom] = useState(period.from);
  const [to, setTo] = useState(period.to);
  const [custom, setCustom] = useState(period.preset === null);

  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="300" blockAlign="center" wrap>
          <Text as="h2" variant="headingSm">
            {t("analytics.period.label")}
          </Text>
          <ButtonGroup variant="segmented">
            {PRESETS.map((days) => (
              <Button
                key={days}
                pressed={!custom && period.preset === days}
                onClick={() => (setCustom(false), navigate(`?period=${days}`))}
              >
                {t(`analytics.period.${days}`)}
              </Button>
            ))}
            <Button pressed={custom} onClick={() => setCustom(true)}>
              {t("analytics.period.custom")}
            </Button>
          </ButtonGroup>
        </InlineStack>
        {custom ? (
          <Form method="get">
            <InlineStack gap="300" blockAlign="end" wrap>
              <TextField
                label={t("analytics.period.from")}
                type="date"
                name="from"
                value={from}
                onChange={setFrom}
                autoComplete="off"
              />
              <TextField
                label={t("analytics.period.to")}
                type="date"
                name="to"
                value={to}
                onChange={setTo}
                autoComplete="off"
              />
              <Button submit variant="primary">
                {t("analytics.period.apply")}
              </Button>
            </InlineStack>
          </Form>
        ) : null}
        <Text as="p" tone="subdued" variant="bodySm">
          <span data-period={`${period.from}/${period.to}`}>
            {t("analytics.period.range", {
              from: format.date(period.from),
              to: format.date(period.to),
              days: period.days,
              previousFrom: format.date(period.previous.from),
              previousTo: format.date(period.previous.to),
            })}
          </span>{" "}
          {t("analytics.period.zone", { zone: zoneName(t, timeZone) })}
        </Text>
      </BlockStack>
    </Card>
  );
}
