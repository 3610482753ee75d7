/** Stable error codes of the service; each maps to one HTTP status and one GraphQL extensions.code. */
export const ERROR_TABLE = {
  BAD_USER_INPUT: { status: 400, graphqlCode: 'BAD_USER_INPUT' },
  UNAUTHENTICATED: { status: 401, graphqlCode: 'UNAUTHENTICATED' },
  PAYMENT_REQUIRED: { status: 402, graphqlCode: 'PAYMENT_REQUIRED' },
  FORBIDDEN: { status: 403, graphqlCode: 'FORBIDDEN' },
  NOT_FOUND: { status: 404, graphqlCode: 'NOT_FOUND' },
  CONFLICT: { status: 409, graphqlCode: 'CONFLICT' },
  GONE: { status: 410, graphqlCode: 'GONE' },
  LOCKED: { status: 423, graphqlCode: 'LOCKED' },
  RATE_LIMITED: { status: 429, graphqlCode: 'RATE_LIMITED' },
  INTERNAL: { status: 500, graphqlCode: 'INTERNAL_SERVER_ERROR' },
} as const;

export type ErrorCode = keyof typeof ERROR_TABLE;

/** Base of every error the service raises on purpose; anything else is answered as a plain 500. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  get status(): number {
    return ERROR_TABLE[this.code].status;
  }

  get graphqlCode(): string {
    return ERROR_TABLE[this.code].graphqlCode;
  }
}

/**
 * Invalid input. `field` is the camelCase path of the offending field (e.g. `items[0].quantity`);
 * each adapter spells it in its own convention (snake_case in REST, camelCase in GraphQL).
 */
export class ValidationError extends AppError {
  constructor(
    readonly field: string | null,
    readonly problem: string,
  ) {
    super('BAD_USER_INPUT', field ? `${field} ${problem}` : problem);
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = 'Authentication required') {
    super('UNAUTHENTICATED', message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You do not have permission to perform this action') {
    super('FORBIDDEN', message);
  }
}

/** Also the answer for another workspace's record: its existence is never revealed. */
export class NotFoundError extends AppError {
  constructor(resource: string, id?: number | string) {
    super('NOT_FOUND', id === undefined ? `${resource} not found` : `${resource} ${id} not found`);
  }
}

/** Something that existed and was deleted for good (e.g. an export file past its retention). */
export class GoneError extends AppError {
  constructor(message: string) {
    super('GONE', message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}

export class RateLimitedError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Too many requests, please try again later',
  ) {
    super('RATE_LIMITED', message);
  }
}

export class PaymentRequiredError extends AppError {
  constructor(message: string) {
    super('PAYMENT_REQUIRED', message);
  }
}
