/**
 * A phone typed for one order and the button that saves it and sends the order again: on the
 * order's page and in Anomalies. Beside each other from Polaris's sm width on; on a phone the
 * button takes a row of its own below the field, so its words read on one line.
 */
import { useState } from "react";
import { Box, Button, InlineGrid, TextField } from "@shopify/polaris";
import { useT } from "../../i18n/react";

export function PhoneFixField({
  label,
  busy,
  primary = false,
  onSave,
}: {
  label: string;
  busy: boolean;
  primary?: boolean;
  onSave(phone: string): void;
}) {
  const t = useT();
  const [phone, setPhone] = useState("");
  return (
    <div data-phone-fix="">
      <InlineGrid columns={{ xs: 1, sm: "minmax(200px, 1fr) auto" }} gap="200" alignItems="end">
        <TextField
          label={label}
          type="tel"
          value={phone}
          onChange={setPhone}
          placeholder="06XXXXXXXX"
          autoComplete="off"
        />
        <Box>
          <Button
            variant={primary ? "primary" : undefined}
            disabled={!phone.trim()}
            loading={busy}
            onClick={() => onSave(phone)}
          >
            {t("order.fix.save")}
          </Button>
        </Box>
      </InlineGrid>
    </div>
  );
}
