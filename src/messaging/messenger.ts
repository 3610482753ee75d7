import type { Config } from '../config';
import { FileOutbox } from './file-outbox';
import { HttpSmsGateway } from './http-sms-gateway';
import type { MessageTransport } from './message';
import { SmtpTransport } from './smtp-transport';

/** Sends e-mail and SMS through the transports the configuration names; a failed delivery throws. */
export class Messenger {
  constructor(
    private readonly mail: MessageTransport,
    private readonly sms: MessageTransport,
  ) {}

  email(to: string, subject: string, text: string): Promise<void> {
    return this.mail.send({ channel: 'email', to, subject, text });
  }

  textMessage(to: string, text: string): Promise<void> {
    return this.sms.send({ channel: 'sms', to, subject: null, text });
  }
}

/** MAIL_TRANSPORT / SMTP_URL and SMS_TRANSPORT, with the file outbox as the default of both. */
export function createMessenger(config: Config, fetchImpl: typeof fetch): Messenger {
  const outbox = new FileOutbox(config.outboxDir);
  const mail = config.mailTransport === 'smtp' ? new SmtpTransport(config.smtpUrl!, `no-reply@${config.publicAppUrl.hostname}`) : outbox;
  const sms = config.smsTransport === 'file' ? outbox : new HttpSmsGateway(config.smsTransport, fetchImpl);
  return new Messenger(mail, sms);
}
