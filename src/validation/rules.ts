import { ValidationError } from '../errors/app-error';

/**
 * Field rules every adapter relies on, checked in the services so REST and GraphQL agree.
 * Each returns the normalised value or throws a ValidationError naming the field.
 */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const HEX_COLOUR = /^#[0-9A-Fa-f]{6}$/;
const TIME_WINDOW = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A trimmed, non-empty string of at most `max` characters. */
export function requiredText(field: string, value: string | undefined | null, max: number): string {
  const text = optionalText(field, value, max);
  if (text === '') throw new ValidationError(field, 'is required');
  return text;
}

/** A trimmed string of at most `max` characters; empty is allowed. */
export function optionalText(field: string, value: string | undefined | null, max: number): string {
  const text = (value ?? '').trim();
  if (text.length > max) throw new ValidationError(field, `must be at most ${max} characters`);
  // PostgreSQL text cannot hold NUL; other control characters are stored as given.
  if (text.includes('\u0000')) throw new ValidationError(field, 'must not contain NUL characters');
  return text;
}

/** A latitude (limit 90) or longitude (limit 180) in degrees. */
export function coordinate(field: string, value: number, limit: 90 | 180): number {
  if (!Number.isFinite(value) || value < -limit || value > limit) throw new ValidationError(field, `must be from -${limit} to ${limit}`);
  return value;
}

/** An e-mail address, lower-cased. */
export function email(field: string, value: string): string {
  const text = value.trim().toLowerCase();
  if (text.length > 254 || !EMAIL.test(text)) throw new ValidationError(field, 'must be a valid e-mail address');
  return text;
}

/** A phone number without spaces, dashes, dots or brackets (how it is stored and keyed). */
export function compactPhone(value: string): string {
  return value.trim().replace(/[\s\-.()]/g, '');
}

/**
 * A phone number: digits with an optional leading +, 10 to 15 digits once spaces, dashes,
 * dots and brackets are removed. Stored in that compact form.
 */
export function phone(field: string, value: string): string {
  const compact = compactPhone(value);
  if (!/^\+?\d{10,15}$/.test(compact)) {
    throw new ValidationError(field, 'must be a phone number of 10 to 15 digits, optionally starting with +');
  }
  return compact;
}

/** Longest password accepted anywhere (longer input is refused before any hashing). */
export const MAX_PASSWORD_LENGTH = 256;

/** A password for a new account. */
export function newPassword(field: string, value: string): string {
  if (value.length < 8) throw new ValidationError(field, 'must be at least 8 characters');
  if (value.length > MAX_PASSWORD_LENGTH) throw new ValidationError(field, `must be at most ${MAX_PASSWORD_LENGTH} characters`);
  return value;
}

/** A #RRGGBB colour, upper-cased. */
export function hexColour(field: string, value: string): string {
  const text = value.trim();
  if (!HEX_COLOUR.test(text)) throw new ValidationError(field, 'must be a colour in the form #RRGGBB');
  return text.toUpperCase();
}

/** A daily time window HH:MM-HH:MM whose start is before its end. */
export function timeWindow(field: string, value: string): string {
  const text = value.trim();
  const m = TIME_WINDOW.exec(text);
  if (!m) throw new ValidationError(field, 'must be a time window in the form HH:MM-HH:MM');
  const start = Number(m[1]) * 60 + Number(m[2]);
  const end = Number(m[3]) * 60 + Number(m[4]);
  if (start >= end) throw new ValidationError(field, 'must start before it ends');
  return text;
}

/** A calendar date YYYY-MM-DD that exists. */
export function calendarDate(field: string, value: string): string {
  const text = value.trim();
  const parsed = new Date(`${text}T00:00:00Z`);
  if (!DATE.test(text) || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== text) {
    throw new ValidationError(field, 'must be a date in the form YYYY-MM-DD');
  }
  return text;
}

/** An http(s) URL. */
export function httpUrl(field: string, value: string, max = 2048): string {
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ValidationError(field, 'must be an http or https URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ValidationError(field, 'must be an http or https URL');
  if (text.length > max) throw new ValidationError(field, `must be at most ${max} characters`);
  return text;
}

/** One of the listed integer codes. */
export function oneOf<T extends number | string>(field: string, value: T, allowed: readonly T[]): T {
  if (!allowed.includes(value)) throw new ValidationError(field, `must be one of: ${allowed.join(', ')}`);
  return value;
}

/** A money amount >= 0 with at most two decimals. */
export function money(field: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new ValidationError(field, 'must be a number >= 0');
  if (value > 9_999_999_999.99) throw new ValidationError(field, 'is too large');
  if (Math.abs(value * 100 - Math.round(value * 100)) > 1e-6) {
    throw new ValidationError(field, 'must have at most two decimal places');
  }
  // As stored: 1e-9 passes the check above and is 0.00.
  return Math.round(value * 100) / 100;
}

/** A quantity > 0 and at most `max`, with at most three decimals (e.g. a measure in litres or kg). */
export function positiveQuantity(field: string, value: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ValidationError(field, 'must be a number');
  if (value <= 0) throw new ValidationError(field, 'must be > 0');
  if (value > max) throw new ValidationError(field, `must be <= ${max}`);
  if (Math.abs(value * 1000 - Math.round(value * 1000)) > 1e-6) {
    throw new ValidationError(field, 'must have at most three decimal places');
  }
  return value;
}
