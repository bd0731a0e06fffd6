/** A conversion as the feed builds one, for the client and stand-in tests. */
import { eventIdFor, hashCustomer, type Conversion } from "../../app/ad-platforms/index";

export function conversion(overrides: Partial<Conversion> = {}): Conversion {
  return {
    eventId: eventIdFor("6180000001001", "delivered"),
    stage: "delivered",
    eventTime: Math.floor(Date.now() / 1000) - 60,
    customer: hashCustomer({
      email: "fatima@example.ma",
      phone: "0612345678",
      firstName: "Fatima",
      lastName: "Zahra",
      city: "Casablanca",
      countryCode: "MA",
      customerId: "7001",
    }),
    browser: { ip: "105.66.12.34", userAgent: "Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36" },
    clicks: {
      fbp: "fb.1.1596403881668.1116446470",
      fbc: "fb.1.1596403881668.IwAR2xyz",
      ttclid: "E.C.P.abc123",
      ttp: "2SbQ2l2iKsBJmV",
    },
    pageUrl: "https://atlas-beauty.ma/checkouts/cn/abc/thank-you",
    value: 249,
    currency: "MAD",
    orderId: "#1001",
    items: [{ id: "ARGAN-50", name: "Argan oil 50 ml", quantity: 1, price: 249 }],
    ...overrides,
  };
}

export const DATASET = "1234567890123";
export const META_TOKEN = "EAAGm0PX4ZCpsBAtest0123456789";
export const PIXEL = "CABCDEFGHIJ1234567890";
export const TIKTOK_TOKEN = "tt-4b7c0d0e9f1a2b3c4d5e6f7a8b9c";
export const noWait = { sleep: async () => undefined, random: () => 0 };
