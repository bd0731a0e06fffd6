/**
 * Where the order stands: received → sent → confirmed → shipped → delivered,
 * each step done or not yet, and where it stopped and why when it left the way.
 */
import { BlockStack, Card, InlineStack, Text } from "@shopify/polaris";
import { STEPS, stepperOf, type StageInput } from "../../models/order-stage";
import { useT } from "../../i18n/react";

export function StageStepper({ input }: { input: StageInput }) {
  const t = useT();
  const { reached, stopped } = stepperOf(input);
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {t("order.stepper.title")}
        </Text>
        <nav aria-label={t("order.stepper.title")}>
          <ol className="cod-stepper" data-stepper data-reached={STEPS[reached]} data-stopped={stopped ?? ""}>
            {STEPS.map((step, i) => {
              const done = i <= reached;
              const current = i === reached;
              return (
                <li key={step} data-step={step} data-done={done} aria-current={current ? "step" : undefined}>
                  <InlineStack gap="100" blockAlign="center" wrap={false}>
                    <span
                      aria-hidden
                      className={`cod-stepper-dot${done ? " cod-stepper-dot-done" : ""}${current && stopped ? " cod-stepper-dot-stopped" : ""}`}
                    />
                    <Text as="span" fontWeight={current ? "semibold" : "regular"} tone={done ? undefined : "subdued"}>
                      {t(`order.step.${step}`)}
                    </Text>
                    <span className="cod-visually-hidden">{done ? t("order.step.done") : t("order.step.notYet")}</span>
                  </InlineStack>
                </li>
              );
            })}
          </ol>
        </nav>
        {stopped ? (
          <span data-stopped-reason={stopped}>
            <Text
              as="p"
              tone={
                stopped === "held" ? "caution" : stopped === "refused" || stopped === "failed" ? "critical" : "subdued"
              }
            >
              {t(`order.stopped.${stopped}`)}
            </Text>
          </span>
        ) : null}
      </BlockStack>
    </Card>
  );
}
