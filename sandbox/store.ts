/**
 * The sandbox's whole in-memory state: accounts, keys (as digests), leads, config.
 * No HTTP here: app.ts maps requests onto these methods and errors onto statuses.
 */
import { randomInt } from "node:crypto";
import { detectAnomalies, type Anomaly } from "./anomalies";
import { buildWorld, type ResolvedItem, type World } from "./catalogue";
import { applyConfigPatch, defaultConfig, type ConfigPatch, type SandboxConfig } from "./config";
import { NotFoundError, TransitionError, ValidationError } from "./errors";
import { digestKey, mintKey, newKeyId } from "./keys";
import type { ItemInput, LeadInput } from "./lead-input";
import {
  confirmationRefusal,
  hasParcel,
  isDelivered,
  shippingRefusal,
  type ConfirmationStatus,
  type ShippingStatus,
} from "./lifecycle";
import { fromCents, toCents } from "./money";
import { newRateState, type RateWindowState } from "./rate-limit";
import type { Seed, SeedSeller } from "./seed";

export const API_VERSION = "1.3";
/** the call log keeps at least this many of a key's latest calls */
export const CALL_LOG_LIMIT = 1000;
const FIRST_REF_NUMBER = 100001;

export interface SandboxKey {
  id: string;
  account: string;
  name: string;
  store: string | null;
  /** the plaintext key, shown once: the sandbox keeps only its digest */
  key: string;
}

export interface CallLogEntry {
  method: string;
  path: string;
  status: number;
  at: string;
}

export interface KeyRecord {
  id: string;
  account: string;
  name: string;
  store: string | null;
  digest: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  calls: CallLogEntry[];
  rate: RateWindowState;
}

export interface StoredItem {
  /** as sent */
  sku: string | null;
  product_id: number | null;
  quantity: number;
  /** what it resolved to in the seller's catalogue, null when unknown */
  resolved: ResolvedItem | null;
}

export interface StoredLead {
  id: number;
  ref: string;
  account: string;
  store: string | null;
  key_id: string;
  external_ref: string | null;
  customer_name: string;
  customer_phone: string;
  /** the city as sent (name or id), and what it resolved to */
  city: string | number | null;
  city_id: number | null;
  address: string | null;
  total_client: string | null;
  items: StoredItem[];
  anomalies: Anomaly[];
  /** anomalies cleared by a correction in the seller's space */
  corrected_anomalies: Anomaly[];
  damaged: boolean;
  confirmation_status: ConfirmationStatus;
  shipping_status: ShippingStatus;
  tracking_number: string | null;
  seller_profit: string | null;
  created_at: string;
  created_ms: number;
  updated_at: string;
}

export interface StatusChange {
  lead: StoredLead;
  event: `lead.${ConfirmationStatus | ShippingStatus}`;
  occurredAtMs: number;
}

export interface AdvanceRequest {
  confirmation_status?: ConfirmationStatus;
  shipping_status?: ShippingStatus;
  tracking_number?: string;
}

export interface CorrectionPatch {
  customer_name?: string;
  customer_phone?: string;
  city?: string | number;
  address?: string | null;
  total_client?: string;
  items?: ItemInput[];
}

export interface ListQuery {
  limit: number;
  before: number | null;
  status: ConfirmationStatus | null;
  /** inclusive lower bound, epoch ms of the UTC day */
  sinceMs: number | null;
}

interface Account extends SeedSeller {
  nextRefNumber: number;
  /** ascending by id */
  leads: StoredLead[];
}

const iso = (ms: number) => new Date(ms).toISOString();

export class SandboxStore {
  config: SandboxConfig;
  private world: World;
  private accounts = new Map<string, Account>();
  private keysByDigest = new Map<string, KeyRecord>();
  private keysById = new Map<string, KeyRecord>();
  private leadsByRef = new Map<string, StoredLead>();
  /** account + phone -> that customer's leads, oldest first (duplicate detection) */
  private leadsByPhone = new Map<string, StoredLead[]>();
  private nextLeadId = 1;
  private listeners = new Set<(change: StatusChange) => void>();
  private acceptedListeners = new Set<(lead: StoredLead) => void>();

  constructor(
    private readonly seed: Seed,
    private readonly initialConfig: SandboxConfig = defaultConfig(),
  ) {
    this.world = buildWorld(seed);
    this.config = structuredClone(initialConfig);
  }

  /** Back to the seed: new keys (returned once, in plaintext), no leads, the start-up config. */
  reset(nowMs: number): SandboxKey[] {
    this.world = buildWorld(this.seed);
    this.config = structuredClone(this.initialConfig);
    this.accounts.clear();
    this.keysByDigest.clear();
    this.keysById.clear();
    this.leadsByRef.clear();
    this.leadsByPhone.clear();
    this.nextLeadId = 1;
    const keys: SandboxKey[] = [];
    for (const seller of this.seed.sellers) {
      this.accounts.set(seller.account, { ...seller, nextRefNumber: FIRST_REF_NUMBER, leads: [] });
      for (const k of seller.keys) keys.push(this.createKey(seller.account, k.name, k.store ?? null, nowMs));
    }
    return keys;
  }

  onStatusChange(listener: (change: StatusChange) => void): void {
    this.listeners.add(listener);
  }

  /** A lead entered the confirmation queue (created clean, or corrected). */
  onAccepted(listener: (lead: StoredLead) => void): void {
    this.acceptedListeners.add(listener);
  }

  // ---- keys ----

  createKey(account: string, name: string, store: string | null, nowMs: number): SandboxKey {
    if (!this.accounts.has(account)) throw new NotFoundError(`Unknown account ${account}.`);
    const { key, digest } = mintKey();
    const record: KeyRecord = {
      id: newKeyId(),
      account,
      name,
      store,
      digest,
      created_at: iso(nowMs),
      revoked_at: null,
      last_used_at: null,
      calls: [],
      rate: newRateState(),
    };
    this.keysByDigest.set(digest, record);
    this.keysById.set(record.id, record);
    return { id: record.id, account, name, store, key };
  }

  /** The key's record, revoked or not; null when the key was never issued. */
  findKey(key: string): KeyRecord | null {
    return this.keysByDigest.get(digestKey(key)) ?? null;
  }

  keyById(id: string): KeyRecord {
    const record = this.keysById.get(id);
    if (!record) throw new NotFoundError(`Unknown key id ${id}.`);
    return record;
  }

  revokeKey(id: string, nowMs: number): KeyRecord {
    const record = this.keyById(id);
    record.revoked_at ??= iso(nowMs);
    return record;
  }

  recordCall(record: KeyRecord, entry: CallLogEntry): void {
    record.calls.push(entry);
    // Trim in batches: splicing one entry per call would cost O(limit) on every request.
    if (record.calls.length >= 2 * CALL_LOG_LIMIT) record.calls.splice(0, record.calls.length - CALL_LOG_LIMIT);
    record.last_used_at = entry.at;
  }

  // ---- config ----

  updateConfig(patch: ConfigPatch): SandboxConfig {
    this.config = applyConfigPatch(this.config, patch);
    return this.config;
  }

  // ---- reads ----

  account(account: string): Account {
    const found = this.accounts.get(account);
    if (!found) throw new NotFoundError(`Unknown account ${account}.`);
    return found;
  }

  me(record: KeyRecord) {
    const account = this.account(record.account);
    return {
      account: account.account,
      name: account.name,
      lead_prefix: account.lead_prefix,
      api_version: API_VERSION,
      rate_limit_per_minute: this.config.rate_limit_per_minute,
      key_name: record.name,
      store: record.store,
    };
  }

  products(account: string) {
    return this.world.catalogues.get(account)?.products ?? [];
  }

  cities() {
    return this.world.cities.cities;
  }

  // ---- leads ----

  createLead(record: KeyRecord, input: LeadInput, nowMs: number): StoredLead {
    const account = this.account(record.account);
    const items = this.resolveItems(account.account, input.items);
    const city = input.city === null ? null : this.world.cities.resolve(input.city);
    const duplicate = this.findRecentDuplicate(account.account, input.customer_phone, items, nowMs);
    const anomalies = detectAnomalies({
      city: { given: input.city !== null, fee: city?.delivery_fee ?? null },
      items: items.map((item, i) => ({
        field: item.sku !== null ? `items[${i}].sku` : `items[${i}].product_id`,
        label: item.sku !== null ? `SKU ${item.sku}` : `product_id ${item.product_id}`,
        price: item.resolved?.platform_price ?? null,
        quantity: item.quantity,
      })),
      total_client: input.total_client,
      duplicateOf: duplicate?.ref ?? null,
    });
    const lead: StoredLead = {
      id: this.nextLeadId++,
      ref: `${account.lead_prefix}-${account.nextRefNumber++}`,
      account: account.account,
      store: record.store,
      key_id: record.id,
      external_ref: input.external_ref,
      customer_name: input.customer_name,
      customer_phone: input.customer_phone,
      city: input.city,
      city_id: city?.id ?? null,
      address: input.address,
      total_client: input.total_client,
      items,
      anomalies,
      corrected_anomalies: [],
      damaged: anomalies.length > 0,
      confirmation_status: "new",
      shipping_status: "pending",
      tracking_number: null,
      seller_profit: null,
      created_at: iso(nowMs),
      created_ms: nowMs,
      updated_at: iso(nowMs),
    };
    account.leads.push(lead);
    this.leadsByRef.set(lead.ref, lead);
    this.indexByPhone(lead);
    if (!lead.damaged) for (const l of this.acceptedListeners) l(lead);
    return lead;
  }

  /** Keeps each phone's list ordered by id, since a corrected phone can join an older list. */
  private indexByPhone(lead: StoredLead): void {
    const key = `${lead.account}\u0000${lead.customer_phone}`;
    const list = this.leadsByPhone.get(key) ?? [];
    list.push(lead);
    if (list.length > 1 && list[list.length - 2].id > lead.id) list.sort((a, b) => a.id - b.id);
    this.leadsByPhone.set(key, list);
  }

  private resolveItems(account: string, items: ItemInput[]): StoredItem[] {
    const catalogue = this.world.catalogues.get(account);
    return items.map((item) => ({
      sku: item.sku ?? null,
      product_id: item.product_id ?? null,
      quantity: item.quantity,
      resolved: (item.sku !== undefined ? catalogue?.bySku(item.sku) : catalogue?.byProductId(item.product_id)) ?? null,
    }));
  }

  /**
   * Same seller, same phone, same product (variants count as their product), created
   * less than duplicate_window_seconds ago. Exactly at the window's end it is no longer recent.
   */
  private findRecentDuplicate(account: string, phone: string, items: StoredItem[], nowMs: number): StoredLead | null {
    const windowMs = this.config.duplicate_window_seconds * 1000;
    const products = new Set(items.flatMap((i) => (i.resolved ? [i.resolved.product_id] : [])));
    if (products.size === 0 || windowMs === 0) return null;
    const earlier = this.leadsByPhone.get(`${account}\u0000${phone}`) ?? [];
    for (let i = earlier.length - 1; i >= 0; i--) {
      const lead = earlier[i];
      if (nowMs - lead.created_ms >= windowMs) break;
      if (lead.items.some((item) => item.resolved && products.has(item.resolved.product_id))) return lead;
    }
    return null;
  }

  /** Newest first; `next_before` is the id of the last element when more follow, else null. */
  listLeads(account: string, query: ListQuery): { leads: StoredLead[]; next_before: number | null } {
    const leads = this.account(account).leads;
    // leads are ascending by id: start just below the cursor
    let hi = leads.length;
    if (query.before !== null) {
      let lo = 0;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (leads[mid].id < query.before) lo = mid + 1;
        else hi = mid;
      }
    }
    const page: StoredLead[] = [];
    for (let i = hi - 1; i >= 0; i--) {
      const lead = leads[i];
      if (query.sinceMs !== null && lead.created_ms < query.sinceMs) break; // older ones are older still
      if (query.status !== null && lead.confirmation_status !== query.status) continue;
      if (page.length === query.limit) return { leads: page, next_before: page[page.length - 1].id };
      page.push(lead);
    }
    return { leads: page, next_before: null };
  }

  /** Another seller's ref and an unknown ref are the same 404. */
  leadOf(account: string, ref: string): StoredLead {
    const lead = this.leadsByRef.get(ref);
    if (!lead || lead.account !== account) throw new NotFoundError("No lead with this reference.");
    return lead;
  }

  lead(ref: string): StoredLead {
    const lead = this.leadsByRef.get(ref);
    if (!lead) throw new NotFoundError(`No lead ${ref}.`);
    return lead;
  }

  allLeads(account: string | null): StoredLead[] {
    if (account !== null) return [...this.account(account).leads];
    return [...this.accounts.values()].flatMap((a) => a.leads).sort((a, b) => a.id - b.id);
  }

  // ---- lifecycle (control API and autopilot) ----

  advance(ref: string, change: AdvanceRequest, nowMs: number): StoredLead {
    const lead = this.lead(ref);
    if (lead.damaged) throw new TransitionError("A damaged lead waits for a correction before any status change.");
    // Check the whole request before touching the lead, so a refusal changes nothing.
    const next = { confirmation_status: lead.confirmation_status, shipping_status: lead.shipping_status };
    if (change.confirmation_status !== undefined) {
      const refusal = confirmationRefusal(next, change.confirmation_status);
      if (refusal) throw new TransitionError(refusal, "confirmation_status");
      next.confirmation_status = change.confirmation_status;
    }
    if (change.shipping_status !== undefined) {
      const refusal = shippingRefusal(next, change.shipping_status);
      if (refusal) throw new TransitionError(refusal, "shipping_status");
      next.shipping_status = change.shipping_status;
    }
    if (change.tracking_number !== undefined && !hasParcel(next.shipping_status)) {
      throw new TransitionError("A tracking number exists only once the parcel is picked up.", "tracking_number");
    }

    const events: StatusChange["event"][] = [];
    if (next.confirmation_status !== lead.confirmation_status || change.confirmation_status === "callback") {
      events.push(`lead.${next.confirmation_status}`);
    }
    if (next.shipping_status !== lead.shipping_status) events.push(`lead.${next.shipping_status}`);
    lead.confirmation_status = next.confirmation_status;
    lead.shipping_status = next.shipping_status;
    if (change.tracking_number !== undefined) lead.tracking_number = change.tracking_number;
    if (hasParcel(lead.shipping_status)) lead.tracking_number ??= newTrackingNumber();
    if (isDelivered(lead.shipping_status)) lead.seller_profit ??= this.sellerProfit(lead);
    lead.updated_at = iso(nowMs);
    for (const event of events) for (const l of this.listeners) l({ lead, event, occurredAtMs: nowMs });
    return lead;
  }

  /** Amount collected minus platform prices minus the delivery fee. */
  private sellerProfit(lead: StoredLead): string {
    const collected = lead.total_client === null ? 0 : toCents(lead.total_client);
    const prices = lead.items.reduce(
      (sum, i) => sum + (i.resolved ? toCents(i.resolved.platform_price) * i.quantity : 0),
      0,
    );
    const city = lead.city_id === null ? null : this.world.cities.byId(lead.city_id);
    return fromCents(collected - prices - (city ? toCents(city.delivery_fee) : 0));
  }

  /**
   * The seller fixes a damaged lead in its space. Patched fields are checked as that
   * interface would (no unknown city or SKU may remain); a low total or a recent
   * duplicate is the seller's call to accept. The lead then enters the confirmation queue.
   */
  correct(ref: string, patch: CorrectionPatch, nowMs: number): StoredLead {
    const lead = this.lead(ref);
    if (!lead.damaged) throw new TransitionError("Only a damaged lead can be corrected.");
    const items = patch.items ? this.resolveItems(lead.account, patch.items) : lead.items;
    const unknownItem = items.findIndex((i) => i.resolved === null);
    if (unknownItem >= 0)
      throw new ValidationError(`items[${unknownItem}]`, "This item is still not in the seller's catalogue.");
    const cityInput = patch.city !== undefined ? patch.city : lead.city;
    const city = cityInput === null ? null : this.world.cities.resolve(cityInput);
    if (!city) throw new ValidationError("city", "The city is still not a delivered city.");

    if (patch.customer_name !== undefined) lead.customer_name = patch.customer_name;
    if (patch.customer_phone !== undefined && patch.customer_phone !== lead.customer_phone) {
      const oldKey = `${lead.account}\u0000${lead.customer_phone}`;
      this.leadsByPhone.set(
        oldKey,
        (this.leadsByPhone.get(oldKey) ?? []).filter((l) => l !== lead),
      );
      lead.customer_phone = patch.customer_phone;
      this.indexByPhone(lead);
    }
    if (patch.address !== undefined) lead.address = patch.address;
    if (patch.total_client !== undefined) lead.total_client = patch.total_client;
    lead.items = items;
    lead.city = cityInput;
    lead.city_id = city.id;
    lead.corrected_anomalies = lead.anomalies;
    lead.anomalies = [];
    lead.damaged = false;
    lead.updated_at = iso(nowMs);
    for (const l of this.acceptedListeners) l(lead);
    return lead;
  }
}

function newTrackingNumber(): string {
  return `SBX${String(randomInt(0, 1e9)).padStart(9, "0")}MA`;
}
