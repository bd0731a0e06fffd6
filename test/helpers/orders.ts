// Shopify order payloads for tests; the builder lives with the scripts that share it.
export * from "../../scripts/dev/lib/order-payloads";
