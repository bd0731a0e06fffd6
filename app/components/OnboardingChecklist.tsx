/** The Home page's set-up steps, each with where it is done. */
import {
  Badge,
  BlockStack,
  Box,
  Button,
  Card,
  Divider,
  InlineGrid,
  InlineStack,
  ProgressBar,
  Text,
} from "@shopify/polaris";
import type { MessageKey } from "../i18n";
import { useT } from "../i18n/react";
import type { OnboardingStep } from "../pages/home.server";

export function OnboardingChecklist({ steps }: { steps: OnboardingStep[] }) {
  const t = useT();
  const done = steps.filter((s) => s.done).length;
  // One primary action, as Polaris asks: the next step to take; the later ones stay secondary.
  const nextStep = steps.find((s) => !s.done)?.id;
  return (
    <div data-checklist="">
      <Card>
        <BlockStack gap="400">
          <BlockStack gap="200">
            <Text as="h2" variant="headingMd">
              {t("home.checklist.title")}
            </Text>
            <Text as="p" tone="subdued">
              {t("home.checklist.intro")}
            </Text>
            <InlineStack gap="300" blockAlign="center" wrap={false}>
              <Text as="span" variant="bodySm">
                {t("home.checklist.progress", { done, total: steps.length })}
              </Text>
              <Box width="200px">
                <ProgressBar progress={(done / Math.max(1, steps.length)) * 100} size="small" tone="success" />
              </Box>
            </InlineStack>
          </BlockStack>
          <Divider />
          <BlockStack gap="300" as="ol">
            {steps.map((step) => (
              <li key={step.id} data-step={step.id} data-done={step.done} style={{ listStyle: "none" }}>
                {/* Beside the step from a tablet's width on; below it on a phone, where a row of its own keeps it inside the card. */}
                <InlineGrid columns={{ xs: 1, sm: "1fr auto" }} alignItems="center" gap="300">
                  <InlineStack gap="300" blockAlign="start" wrap={false}>
                    <Box minWidth="80px">
                      <Badge tone={step.done ? "success" : undefined} progress={step.done ? "complete" : "incomplete"}>
                        {step.done ? t("common.done") : t("common.toDo")}
                      </Badge>
                    </Box>
                    <BlockStack gap="100">
                      <Text as="h3" variant="headingSm">
                        {t(`home.step.${step.id}.title` as MessageKey)}
                      </Text>
                      <Text as="p" variant="bodySm" tone="subdued">
                        {t(`home.step.${step.id}.help` as MessageKey)}
                      </Text>
                    </BlockStack>
                  </InlineStack>
                  {step.done ? null : (
                    <Button url={step.href} variant={step.id === nextStep ? "primary" : "secondary"}>
                      {t(`home.step.${step.id}.action` as MessageKey)}
                    </Button>
                  )}
                </InlineGrid>
              </li>
            ))}
          </BlockStack>
        </BlockStack>
      </Card>
    </div>
  );
}
