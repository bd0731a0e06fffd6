/**
 * Errors for shop-entered mapping rules (the admin's SKU and city mapping forms): each
 * names the offending field so the form can point at it.
 */
export class LeadRuleError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A SKU mapping whose source or targets are not usable. */
export class InvalidSkuMappingError extends LeadRuleError {}

/** A city alias with nothing city-like in it, or pointing at no city. */
export class InvalidCityAliasError extends LeadRuleError {}
