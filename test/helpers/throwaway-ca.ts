import { generate } from 'selfsigned';

/** A certificate authority made for one run, and a server certificate it signs. */
export interface ThrowawayCa {
  caCert: string;
  key: string;
  cert: string;
}

/**
 * A throwaway certificate authority for local HTTPS webhook receivers (the tests' and the
 * benchmarks'), to be trusted through Node's own NODE_EXTRA_CA_CERTS, and a server certificate it
 * signs for localhost, 127.0.0.1, ::1 and *.hooks.test.
 */
export async function throwawayCa(): Promise<ThrowawayCa> {
  const ca = await generate([{ name: 'commonName', value: 'Sales Distribution Test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: 'hooks.test' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 2, value: 'hooks.test' },
          { type: 2, value: '*.hooks.test' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { caCert: ca.cert, key: server.private, cert: server.cert };
}
