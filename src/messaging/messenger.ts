import type { Config } from '../config';
import { FileOutbox } from './file-outbox';
import { HttpSmsGateway } from './http-sms-gateway';
import type { MessageTransport, OutgoingMessage } from './message';
import { SmtpTransport } from './smtp-transport';

/** Where delivery failures are reported. */
export interface DeliveryLog {
  error(details: object, message: string): void;
}

/**
 * Sends e-mail and SMS through the transports the configuration names. A failed delivery is
 * logged (never with the text, which carries codes and links) and reported as `false`, not
 * thrown: callers answer requests for codes identically whether or not an account exists, and a
 * transport outage must not turn that answer into a 500 for known accounts only.
 */
export class Messenger {
  constructor(
    private readonly mail: MessageTransport,
    private readonly sms: MessageTransport,
    private readonly log: DeliveryLog,
  ) {}

  /** True when the transport accepted the e-mail. */
  email(to: string, subject: string, text: string): Promise<boolean> {
    return this.deliver(this.mail, { channel: 'email', to, subject, text });
  }

  /** True when the transport accepted the SMS. */
  textMessage(to: string, text: string): Promise<boolean> {
    return this.deliver(this.sms, { channel: 'sms', to, subject: null, text });
  }

  private async deliver(transport: MessageTransport, message: OutgoingMessage): Promise<boolean> {
    try {
      await transport.send(message);
      return true;
    } catch (err) {
      this.log.error({ err, channel: message.channel, subject: message.subject }, 'message delivery failed');
      return false;
    }
  }
}

/** MAIL_TRANSPORT / SMTP_URL and SMS_TRANSPORT, with the file outbox as the default of both. */
export function createMessenger(config: Config, fetchImpl: typeof fetch, log: DeliveryLog): Messenger {
  const outbox = new FileOutbox(config.outboxDir);
  const mail = config.mailTransport === 'smtp' ? new SmtpTransport(config.smtpUrl!, `no-reply@${config.publicAppUrl.hostname}`) : outbox;
  const sms = config.smsTransport === 'file' ? outbox : new HttpSmsGateway(config.smsTransport, fetchImpl);
  return new Messenger(mail, sms, log);
}
