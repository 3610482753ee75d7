import type { Transporter } from 'nodemailer';
import type { MessageTransport, OutgoingMessage } from './message';

/** E-mail through an SMTP server (nodemailer), for MAIL_TRANSPORT=smtp. */
export class SmtpTransport implements MessageTransport {
  private transporter?: Promise<Transporter>;

  /** `from` is the sender address of every message. */
  constructor(
    private readonly smtpUrl: string,
    private readonly from: string,
  ) {}

  async send(message: OutgoingMessage): Promise<void> {
    // Loaded on first use: most deployments never load nodemailer.
    this.transporter ??= import('nodemailer').then((m) => m.createTransport(this.smtpUrl));
    await (await this.transporter).sendMail({ from: this.from, to: message.to, subject: message.subject ?? '', text: message.text });
  }
}
