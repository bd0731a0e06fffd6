/**
 * English messages of the customer delivery record (Settings section, timeline
 * entries), spread into en.ts. customers.fr.ts has the same keys (typed against this object).
 */
export const customersEn = {
  "settings.customerHold.title": "Customers with a bad delivery record",
  "settings.customerHold.help":
    "Hold an order before it is sent when its customer has refused, returned or faked enough earlier orders, or when you blocked the phone. The held order says why, and you can send it anyway.",
  "settings.customerHold.enabled": "Hold orders of customers with a bad record",
  "settings.customerHold.failures": "Failed deliveries that hold an order",
  "settings.customerHold.days": "Counted over the last (days)",
  "timeline.customer_hold": "Held: customer record",
  "timeline.send_anyway": "Sent anyway",
};
