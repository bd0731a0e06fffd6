/**
 * Typed errors of the public API; the HTTP layer turns each into
 * `{ error: { code, message, field? } }` with its status.
 */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 409 | 422 | 429 | 500,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  toBody(): { error: { code: string; message: string; field?: string } } {
    return { error: { code: this.code, message: this.message, ...(this.field ? { field: this.field } : {}) } };
  }
}

export class InvalidBodyError extends ApiError {
  constructor(message: string) {
    super(400, "invalid_body", message);
  }
}

export class UnauthorizedError extends ApiError {
  constructor(message = "Missing, invalid or revoked API key.") {
    super(401, "unauthorized", message);
  }
}

export class NotFoundError extends ApiError {
  constructor(message = "Not found.") {
    super(404, "not_found", message);
  }
}

export class ValidationError extends ApiError {
  constructor(field: string, message: string) {
    super(422, "validation_error", message, field);
  }
}

/** An illegal lifecycle transition or correction, from the control API. */
export class TransitionError extends ApiError {
  constructor(message: string, field?: string) {
    super(422, "illegal_transition", message, field);
  }
}

export class RateLimitError extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      429,
      "rate_limited",
      `Rate limit reached for this key. Retry in ${retryAfterSeconds} s; calling earlier consumes the next minute.`,
    );
  }

  override toBody() {
    const body = super.toBody();
    return { error: { ...body.error, retry_after: this.retryAfterSeconds } };
  }
}

export class InjectedFaultError extends ApiError {
  constructor(atIso: string) {
    super(500, "internal_error", `Injected server incident at ${atIso}.`);
  }
}
