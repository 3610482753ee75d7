import { NUL_PROBLEM } from '../validation/nul-characters';

/** The parts of an Ajv error that a message is made from. */
export interface SchemaViolation {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** `/items/0/product_variant_id` → `items[0].product_variant_id` (JSON-pointer escapes undone). */
function fieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

/** `field` + `.name`, or `name` alone at the top. */
const child = (field: string, name: string) => (field ? `${field}.${name}` : name);

/**
 * The field a violation is about: the missing or unknown property itself for `required` and
 * `additionalProperties`, else the value's path; null when the whole request part is wrong.
 */
export function violationField(v: SchemaViolation): string | null {
  const field = fieldPath(v.instancePath);
  if (v.keyword === 'required') return child(field, String(v.params.missingProperty));
  if (v.keyword === 'additionalProperties') return child(field, String(v.params.additionalProperty));
  return field || null;
}

const TYPE_NAMES: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

const FORMAT_NAMES: Record<string, string> = {
  date: 'a date in the form YYYY-MM-DD',
  'date-time': 'an ISO 8601 timestamp',
  email: 'a valid e-mail address',
  uri: 'a valid URL',
};

/**
 * A sentence that names the wrong field and says what it must be, from a JSON-schema violation.
 * `where` names the part of the request (`body`, `querystring`, `params`) for whole-part errors.
 */
export function describeViolation(v: SchemaViolation, where = 'body'): string {
  const field = fieldPath(v.instancePath);
  const p = v.params;
  if (v.keyword === 'required') return `${child(field, String(p.missingProperty))} is required`;
  // Worded like the field errors, name first (Stripe says "Received unknown parameter: foo").
  if (v.keyword === 'additionalProperties') {
    const known = where === 'querystring' && !field ? 'query parameter of this endpoint' : 'field';
    return `${child(field, String(p.additionalProperty))} is not a known ${known}`;
  }
  const subject = field || (where === 'body' ? 'Request body' : where);
  switch (v.keyword) {
    case 'type': {
      const types = String(p.type).split(',');
      return `${subject} must be ${types.map((t) => TYPE_NAMES[t] ?? t).join(' or ')}`;
    }
    case 'minimum':
      return `${subject} must be >= ${String(p.limit)}`;
    case 'maximum':
      return `${subject} must be <= ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `${subject} must be > ${String(p.limit)}`;
    case 'minLength':
      return p.limit === 1 ? `${subject} must not be empty` : `${subject} must be at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `${subject} must be at most ${String(p.limit)} characters`;
    case 'minItems':
      return `${subject} must have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `${subject} must have at most ${String(p.limit)} items`;
    case 'enum':
      return `${subject} must be one of: ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `${subject} must be ${String(p.allowedValue)}`;
    case 'format':
      return `${subject} must be ${FORMAT_NAMES[String(p.format)] ?? `in ${String(p.format)} format`}`;
    case 'pattern':
      return `${subject} has an invalid format`;
    case 'nulCharacter':
      return `${subject} ${NUL_PROBLEM}`;
    case 'anyOf':
    case 'oneOf':
      return `${subject} has an invalid value`;
    default:
      return `${subject} ${v.message ?? 'is invalid'}`;
  }
}
