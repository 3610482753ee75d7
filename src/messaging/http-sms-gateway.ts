import type { MessageTransport, OutgoingMessage } from './message';

/** How long the gateway may take to accept a message. */
const GATEWAY_TIMEOUT_MS = 10_000;

/**
 * SMS through an HTTP gateway (SMS_TRANSPORT=<url>): POST {"to", "text"} as JSON; any 2xx means
 * accepted. Gateways that need another shape sit behind a small adapter of the operator's.
 */
export class HttpSmsGateway implements MessageTransport {
  constructor(
    private readonly url: string,
    private readonly fetchImpl: typeof fetch,
  ) {}

  async send(message: OutgoingMessage): Promise<void> {
    const response = await this.fetchImpl(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: message.to, text: message.text }),
      signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`SMS gateway answered ${response.status}`);
  }
}
