import crypto, { type KeyObject } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** One passkey held by a SoftAuthenticator; `counter` is writable so tests can make it go down. */
export interface SoftCredential {
  readonly id: string;
  readonly rpId: string;
  readonly userHandle: string;
  readonly publicKey: KeyObject;
  readonly privateKey: KeyObject;
  counter: number;
}

/** The parts of creation options the authenticator reads (the full JSON type also fits). */
export type SoftCreationOptions = Pick<PublicKeyCredentialCreationOptionsJSON, 'challenge' | 'rp' | 'user'>;
/** The parts of request options the authenticator reads (the full JSON type also fits). */
export type SoftRequestOptions = Pick<PublicKeyCredentialRequestOptionsJSON, 'challenge' | 'rpId' | 'allowCredentials'>;

/** Per-call deviations from honest behaviour, so tests can produce responses a server must reject. */
export interface SoftCreateOverrides { origin?: string; userVerification?: boolean; challenge?: string }
/** Per-call deviations for assertions; `counter` is used and stored instead of incrementing. */
export interface SoftGetOverrides extends SoftCreateOverrides { credentialId?: string; counter?: number; rpId?: string }

// tiny-cbor's value type, which the library does not re-export by name.
type CBOR = Parameters<typeof isoCBOR.encode>[0];

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const sha256 = (data: Buffer | string): Buffer => crypto.createHash('sha256').update(data).digest();
const uint32 = (n: number): Buffer => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };

/** A software WebAuthn authenticator (ES256, "none" attestation) that speaks the browser JSON shapes. */
export class SoftAuthenticator {
  private readonly origin: string;
  private readonly userVerification: boolean;
  private readonly held: SoftCredential[] = [];

  constructor(opts: { origin?: string; userVerification?: boolean } = {}) {
    this.origin = opts.origin ?? 'http://localhost:3000';
    this.userVerification = opts.userVerification ?? true;
  }

  /** Every credential created so far, oldest first. */
  get credentials(): readonly SoftCredential[] {
    return [...this.held];
  }

  /** The credential with this id; throws if the authenticator does not hold it. */
  credential(id: string): SoftCredential {
    const found = this.held.find((c) => c.id === id);
    if (!found) throw new Error(`SoftAuthenticator holds no credential ${id}`);
    return found;
  }

  /** Sets the stored signature counter, e.g. below the server's value to simulate a cloned key. */
  setCounter(id: string, value: number): void {
    this.credential(id).counter = value;
  }

  /** Creates a credential, like navigator.credentials.create(), and returns the registration response. */
  createCredential(options: SoftCreationOptions, overrides: SoftCreateOverrides = {}): RegistrationResponseJSON {
    // A browser would default to the page's effective domain; we have no page, so demand it.
    const rpId = options.rp.id;
    if (!rpId) throw new Error('SoftAuthenticator.createCredential needs options.rp.id');
    const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credId = crypto.randomBytes(crypto.randomInt(16, 33));
    const cred: SoftCredential = {
      id: credId.toString('base64url'), rpId, userHandle: options.user.id, publicKey, privateKey, counter: 0,
    };

    const jwk = publicKey.export({ format: 'jwk' });
    // COSE keys use integer labels; tiny-cbor only emits integer keys from a Map (objects are not encodable).
    const coseKey = isoCBOR.encode(new Map<number, CBOR>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]));
    const credIdLen = Buffer.alloc(2);
    credIdLen.writeUInt16BE(credId.length);
    const attestedCredentialData = Buffer.concat([Buffer.alloc(16), credIdLen, credId, coseKey]);
    const authData = Buffer.concat([this.authDataHead(rpId, overrides.userVerification, FLAG_AT, cred.counter), attestedCredentialData]);
    const attestationObject = isoCBOR.encode(new Map<string, CBOR>([
      ['fmt', 'none'], ['attStmt', new Map<string, CBOR>()], ['authData', authData],
    ]));
    const clientDataJSON = this.clientData('webauthn.create', overrides.challenge ?? options.challenge, overrides.origin);

    this.held.push(cred);
    return {
      id: cred.id,
      rawId: cred.id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** Signs an assertion, like navigator.credentials.get(), and returns the authentication response. */
  getAssertion(options: SoftRequestOptions, overrides: SoftGetOverrides = {}): AuthenticationResponseJSON {
    const cred = this.pick(options, overrides.credentialId);
    cred.counter = overrides.counter ?? cred.counter + 1;
    const rpId = overrides.rpId ?? options.rpId ?? cred.rpId;
    const authData = this.authDataHead(rpId, overrides.userVerification, 0, cred.counter);
    const clientDataJSON = this.clientData('webauthn.get', overrides.challenge ?? options.challenge, overrides.origin);
    // Node signs EC keys in DER form by default, which is what WebAuthn expects for ES256.
    const signature = crypto.sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), cred.privateKey);
    return {
      id: cred.id,
      rawId: cred.id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: cred.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  // An explicit id wins; otherwise honour allowCredentials, or act as a discoverable login and
  // offer the newest credential for the RP (what a user picking "the passkey I just made" gets).
  private pick(options: SoftRequestOptions, credentialId?: string): SoftCredential {
    if (credentialId) return this.credential(credentialId);
    const allowed = options.allowCredentials ?? [];
    if (allowed.length > 0) {
      const found = this.held.find((c) => allowed.some((a) => a.id === c.id));
      if (!found) throw new Error('SoftAuthenticator holds none of allowCredentials');
      return found;
    }
    const forRp = this.held.filter((c) => !options.rpId || c.rpId === options.rpId);
    const newest = forRp[forRp.length - 1];
    if (!newest) throw new Error('SoftAuthenticator holds no credential for this RP');
    return newest;
  }

  // rpIdHash | flags | signCount: the 37 bytes shared by registration and assertion.
  private authDataHead(rpId: string, uv: boolean | undefined, extraFlags: number, counter: number): Buffer {
    const flags = FLAG_UP | ((uv ?? this.userVerification) ? FLAG_UV : 0) | extraFlags;
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), uint32(counter)]);
  }

  private clientData(type: string, challenge: string, origin?: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: origin ?? this.origin, crossOrigin: false }));
  }
}
