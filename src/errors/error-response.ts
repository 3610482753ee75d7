import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AppError, ValidationError } from './app-error';
import { describeViolation, violationField, type SchemaViolation } from './validation-message';

/** One invalid field of a 400: its name (null when the request as a whole is wrong) and the sentence about it. */
export interface FieldError {
  field: string | null;
  message: string;
}

/** What the client is told about a failure. */
export interface ErrorAnswer {
  status: number;
  code: string;
  message: string;
  /** Every invalid field, first one first (its message is `message`); on every 400. */
  errors?: FieldError[];
}

/** camelCase field paths of services become the snake_case names of the REST interface. */
export function snakeCaseField(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  validation?: SchemaViolation[];
  validationContext?: string;
  message?: string;
}

/**
 * Turns any thrown value into a status and a message that leaks nothing: AppErrors speak for
 * themselves, Fastify's own client errors keep their 4xx, everything else becomes 500 (the caller
 * logs those with the request id).
 * `fieldStyle` spells field names the way the caller's interface does.
 */
export function answerFor(
  err: unknown,
  fieldStyle: (field: string) => string = snakeCaseField,
): ErrorAnswer {
  const answer = describe(err, fieldStyle);
  // Every 400 lists its invalid fields; a failure of the request as a whole is one entry without a field.
  if (answer.status === 400 && !answer.errors) answer.errors = [{ field: null, message: answer.message }];
  return answer;
}

/** Schema violations, one per field (a union's branches each report the same field: the first wins). */
function fieldErrors(violations: SchemaViolation[], where: string | undefined): FieldError[] {
  const byField = new Map<string | null, FieldError>();
  for (const v of violations) {
    const field = violationField(v);
    if (!byField.has(field)) byField.set(field, { field, message: describeViolation(v, where) });
  }
  return [...byField.values()];
}

function describe(err: unknown, fieldStyle: (field: string) => string): ErrorAnswer {
  if (err instanceof ValidationError && err.field) {
    // Problems may name another field ("must not be after dateTo"): spelt the same way.
    const problem = err.problem.replace(/\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g, (name) => fieldStyle(name));
    const message = `${fieldStyle(err.field)} ${problem}`;
    return { status: 400, code: err.graphqlCode, message, errors: [{ field: fieldStyle(err.field), message }] };
  }
  if (err instanceof AppError) {
    return { status: err.status, code: err.graphqlCode, message: err.message };
  }
  if (err instanceof UniqueConstraintViolationException) {
    // A race the service's own duplicate check could not see; never leak the constraint name.
    return { status: 409, code: 'CONFLICT', message: 'A record with the same unique value already exists' };
  }
  const e = (err ?? {}) as FastifyLikeError;
  if (Array.isArray(e.validation) && e.validation.length > 0) {
    const errors = fieldErrors(e.validation, e.validationContext);
    return { status: 400, code: 'BAD_USER_INPUT', message: errors[0].message, errors };
  }
  if (e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return { status: 400, code: 'BAD_USER_INPUT', message: 'Request body is not valid JSON' };
  }
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return { status: 415, code: 'BAD_USER_INPUT', message: 'Content-Type must be application/json' };
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return { status: e.statusCode, code: 'BAD_REQUEST', message: e.message ?? 'Bad request' };
  }
  return { status: 500, code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' };
}
