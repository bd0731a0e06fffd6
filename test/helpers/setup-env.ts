// Every test process gets a complete, valid environment so importing the app
// never fails on configuration; tests that exercise env parsing pass their own.
process.env.SHOPIFY_API_KEY ||= "test-api-key";
process.env.SHOPIFY_API_SECRET ||= "test-api-secret";
process.env.SHOPIFY_APP_URL ||= "https://cod-lead-sync.test";
process.env.SCOPES ||= "read_orders,write_orders,read_products,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders";
process.env.ENCRYPTION_KEY ||= "/Ar6Z1P8F8y5nUeWsA7OoDMml8SkHbRl+BzMfQUSPks=";
process.env.NODE_ENV ||= "test";
