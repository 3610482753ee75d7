import { registerEnumType } from 'type-graphql';

/** What an e-mailed link asked for at magic-link/request is for. */
export enum LinkPurpose {
  /** Signs in (15 minutes). */
  SIGN_IN = 'sign_in',
  /** Sets a new password (1 hour); never signs in. */
  RESET_PASSWORD = 'reset_password',
}
registerEnumType(LinkPurpose, { name: 'LinkPurpose' });
