/**
 * The fix of an unknown product or city, as the matcher's proposals allow it: a proven
 * item is the primary action; likely items are choices shown with what the merchant
 * judges them by (a product's variant, platform price and stock; a city's region beside
 * the order's address) and why each is proposed; nothing proposed says so plainly, with the way forward. The item
 * the merchant picks becomes the primary action, and no other button stays as prominent.
 */
import { useState, type ReactNode } from "react";
import { Banner, BlockStack, Box, Button, InlineStack, Text } from "@shopify/polaris";
import type { CityOption, OrderAddress, ProductOption } from "../../pages/anomalies.server";
import type { CitySuggestion, ProductSuggestion, Suggestion } from "../../leads/types";
import type { MessageKey } from "../../i18n";
import { useFormat, useT, type Translate } from "../../i18n/react";
import { CityPicker, ProductPicker } from "./Pickers";

/** An order of the group, for "open it in Shopify" (where it can be cancelled). */
export interface ProposalOrder {
  name: string;
  shopifyUrl?: string;
  address?: OrderAddress | null;
}

/** Certain (at most one) and likely proposals; stored findings without a confidence are likely. */
export function splitProposals<S extends Suggestion>(suggestions: readonly S[]): { certain?: S; likely: S[] } {
  const certain = suggestions.find((s) => s.confidence === "certain");
  return { certain, likely: suggestions.filter((s) => s !== certain) };
}

/** "Douar Ouled Salem, Sebt Gzoula, code postal 20000": what the customer wrote, nothing added. */
export function addressText(t: Translate, address: OrderAddress | null | undefined): string {
  if (!address) return t("suggestions.city.noAddress");
  return [
    address.address1,
    address.address2,
    address.city,
    address.zip ? t("suggestions.city.zip", { zip: address.zip }) : null,
    address.province ? t("suggestions.city.province", { province: address.province }) : null,
  ]
    .filter(Boolean)
    .join(", ");
}

function ShopifyLinks({ orders }: { orders: readonly ProposalOrder[] }) {
  const t = useT();
  return (
    <>
      {orders
        .filter((o) => o.shopifyUrl)
        .slice(0, 3)
        .map((o) => (
          <Button key={o.name} url={o.shopifyUrl} target="_top" variant="plain">
            {t("suggestions.openInShopify", { order: o.name })}
          </Button>
        ))}
    </>
  );
}

function Why({ text }: { text: string }) {
  return text ? (
    <span data-proposal-why>
      <Text as="span" variant="bodySm" tone="subdued">
        {text}
      </Text>
    </span>
  ) : null;
}

/** "Pourquoi : le SKU commence comme celui de la plateforme"; nothing for a finding stored without a reason. */
function whyText(t: Translate, s: Suggestion): string {
  if (!s.why) return "";
  const reason = t(`suggestions.why.${s.kind}.${s.why}` as MessageKey);
  return t("suggestions.why", { reason });
}

interface FixLabels {
  /** The proven item's button: "Utiliser {name} et envoyer 2 commandes". */
  apply(name: string): string;
  /** The picked item's button: "Associer et renvoyer 2 commandes". */
  applyPicked: string;
  /** Under the picker (what the fix does beyond this order). */
  help?: string;
}

interface Proven {
  /** "Le même produit sur la plateforme :" */
  intro: string;
  name: string;
  details: string;
  /** "Pourquoi : …", when the finding says. */
  why: string;
  /** The one-click fix's label. */
  label: string;
  onApply(): void;
}

interface Choice {
  key: string;
  name: string;
  details: string;
  why: string;
  onChoose(): void;
}

/**
 * What both fixes show: the proven item (primary until the merchant picks another), the
 * likely choices, or the plain "nothing matches" with its way forward; then the picker,
 * whose button is the primary action once something is picked.
 */
function FixLayout({
  kind,
  proven,
  choicesTitle,
  choices,
  none,
  picker,
  picked,
  busy,
  labels,
  onApplyPicked,
}: {
  kind: "product" | "city";
  proven?: Proven;
  choicesTitle: string;
  choices: Choice[];
  none?: { title: string; body: string; actions: ReactNode };
  picker: ReactNode;
  picked: boolean;
  busy: boolean;
  labels: FixLabels;
  onApplyPicked(): void;
}) {
  const t = useT();
  return (
    <BlockStack gap="300">
      {proven ? (
        <div data-proposal="certain" data-proposal-kind={kind}>
          <BlockStack gap="100">
            <Text as="p" variant="bodySm">
              {proven.intro}{" "}
              <Text as="span" fontWeight="semibold">
                {proven.name}
              </Text>
              {proven.details ? ` · ${proven.details}` : ""}
            </Text>
            <Why text={proven.why} />
            <InlineStack>
              <Button variant={picked ? undefined : "primary"} loading={busy} onClick={proven.onApply}>
                {proven.label}
              </Button>
            </InlineStack>
          </BlockStack>
        </div>
      ) : null}
      {choices.length > 0 ? (
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            {choicesTitle}
          </Text>
          {choices.map((choice) => (
            <div key={choice.key} data-proposal="likely" data-proposal-kind={kind}>
              <InlineStack gap="200" align="space-between" blockAlign="center" wrap={false}>
                <BlockStack gap="0">
                  <Text as="span" fontWeight="semibold">
                    {choice.name}
                  </Text>
                  {choice.details ? (
                    <Text as="span" variant="bodySm" tone="subdued">
                      {choice.details}
                    </Text>
                  ) : null}
                  <Why text={choice.why} />
                </BlockStack>
                <Button
                  size="slim"
                  onClick={choice.onChoose}
                  accessibilityLabel={t("suggestions.chooseLabel", { name: choice.name })}
                >
                  {t("suggestions.choose")}
                </Button>
              </InlineStack>
            </div>
          ))}
        </BlockStack>
      ) : null}
      {none ? (
        <div data-proposal="none" data-proposal-kind={kind}>
          <Banner tone="warning" title={none.title}>
            <BlockStack gap="200">
              <p>{none.body}</p>
              <InlineStack gap="300" blockAlign="center" wrap>
                {none.actions}
              </InlineStack>
            </BlockStack>
          </Banner>
        </div>
      ) : null}
      <InlineStack gap="200" blockAlign="end" wrap>
        <Box minWidth="280px">{picker}</Box>
        <span data-proposal="picked">
          <Button variant={picked ? "primary" : undefined} disabled={!picked} loading={busy} onClick={onApplyPicked}>
            {labels.applyPicked}
          </Button>
        </span>
      </InlineStack>
      {labels.help ? (
        <Text as="p" variant="bodySm" tone="subdued">
          {labels.help}
        </Text>
      ) : null}
    </BlockStack>
  );
}

function productDetails(
  t: Translate,
  moneyText: (amount: string) => string,
  option: ProductOption | undefined,
  sku: string,
): string {
  return [
    option?.variantName ? t("suggestions.product.variant", { variant: option.variantName }) : null,
    sku,
    option?.price ? t("suggestions.product.price", { price: moneyText(option.price) }) : null,
    option ? t(option.inStock ? "suggestions.product.inStock" : "suggestions.product.outOfStock") : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

export function ProductFix({
  title,
  suggestions,
  products,
  orders,
  busy,
  labels,
  onApply,
  onCheckAgain,
}: {
  /** The line as the order names it (its title, else its SKU). */
  title: string;
  suggestions: readonly Suggestion[];
  products: ProductOption[];
  orders: readonly ProposalOrder[];
  busy: boolean;
  labels: FixLabels;
  onApply(platformSku: string): void;
  onCheckAgain?(): void;
}) {
  const t = useT();
  const format = useFormat();
  const [sku, setSku] = useState<string | null>(null);
  const own = suggestions.filter((s): s is ProductSuggestion => s.kind === "product");
  const { certain, likely } = splitProposals(own);
  const moneyText = (amount: string) => format.moneyText(amount);
  const optionOf = (s: ProductSuggestion) => products.find((o) => o.sku === s.sku);
  const nameOf = (s: ProductSuggestion) => optionOf(s)?.productName ?? s.name;
  const detailsOf = (s: ProductSuggestion) => productDetails(t, moneyText, optionOf(s), s.sku);

  return (
    <FixLayout
      kind="product"
      picked={sku !== null}
      busy={busy}
      labels={labels}
      onApplyPicked={() => sku && onApply(sku)}
      proven={
        certain && {
          intro: t("suggestions.product.certain"),
          name: nameOf(certain),
          details: detailsOf(certain),
          why: whyText(t, certain),
          label: labels.apply(certain.name),
          onApply: () => onApply(certain.sku),
        }
      }
      choicesTitle={t("suggestions.product.likelyTitle")}
      choices={likely.map((s) => ({
        key: s.sku,
        name: nameOf(s),
        details: detailsOf(s),
        why: whyText(t, s),
        onChoose: () => setSku(s.sku),
      }))}
      none={
        own.length === 0
          ? {
              title: t("suggestions.product.noneTitle", { title }),
              body: t("suggestions.product.noneBody"),
              actions: (
                <>
                  {onCheckAgain ? (
                    <Button onClick={onCheckAgain} loading={busy}>
                      {t("suggestions.checkAgain")}
                    </Button>
                  ) : null}
                  <ShopifyLinks orders={orders} />
                </>
              ),
            }
          : undefined
      }
      picker={
        <ProductPicker
          label={t("order.fix.product")}
          value={sku}
          onChange={setSku}
          suggestions={own}
          options={products}
        />
      }
    />
  );
}

export function CityFix({
  input,
  suggestions,
  cities,
  orders,
  busy,
  labels,
  unrecognised,
  onApply,
}: {
  /** The city field as the customer wrote it. */
  input: string;
  suggestions: readonly Suggestion[];
  cities: CityOption[];
  /** The orders it holds, with their addresses. */
  orders: readonly ProposalOrder[];
  busy: boolean;
  labels: FixLabels;
  /** The field names no delivered city (not a missing city, nor a match to double-check). */
  unrecognised: boolean;
  onApply(cityId: number): void;
}) {
  const t = useT();
  const [cityId, setCityId] = useState<number | null>(null);
  const own = suggestions.filter((s): s is CitySuggestion => s.kind === "city");
  const { certain, likely } = splitProposals(own);
  const regionOf = (s: CitySuggestion) => {
    const region = cities.find((c) => c.id === s.cityId)?.region;
    return region ? t("suggestions.city.region", { region }) : "";
  };

  return (
    <BlockStack gap="300">
      <BlockStack gap="100">
        <Text as="h3" variant="headingSm">
          {t("suggestions.city.address")}
        </Text>
        {orders.map((o) => (
          <div key={o.name} data-order-address={o.name}>
            <Text as="p" variant="bodySm">
              {orders.length > 1
                ? t("suggestions.city.addressOf", { order: o.name, address: addressText(t, o.address) })
                : addressText(t, o.address)}
            </Text>
          </div>
        ))}
      </BlockStack>
      <FixLayout
        kind="city"
        picked={cityId !== null}
        busy={busy}
        labels={labels}
        onApplyPicked={() => cityId !== null && onApply(cityId)}
        proven={
          certain && {
            intro: t("suggestions.city.certain"),
            name: certain.name,
            details: regionOf(certain),
            why: whyText(t, certain),
            label: labels.apply(certain.name),
            onApply: () => onApply(certain.cityId),
          }
        }
        choicesTitle={t("suggestions.city.likelyTitle")}
        choices={likely.map((s) => ({
          key: String(s.cityId),
          name: s.name,
          details: regionOf(s),
          why: whyText(t, s),
          onChoose: () => setCityId(s.cityId),
        }))}
        none={
          unrecognised && own.length === 0
            ? {
                title: t("suggestions.city.noneTitle", { city: input }),
                body: t("suggestions.city.noneBody"),
                actions: <ShopifyLinks orders={orders} />,
              }
            : undefined
        }
        picker={
          <CityPicker
            label={t("order.fix.city")}
            value={cityId}
            onChange={setCityId}
            suggestions={own}
            options={cities}
          />
        }
      />
    </BlockStack>
  );
}
