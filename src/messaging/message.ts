/** One outgoing e-mail, SMS or push, in the shape the file outbox stores (see operations.md). */
export interface OutgoingMessage {
  channel: 'email' | 'sms' | 'push';
  to: string;
  /** E-mail subject; null for SMS. */
  subject: string | null;
  text: string;
  /** A push's data (the record it opens, its app and platform); absent for e-mail and SMS. */
  data?: Record<string, string>;
}

/** Something that delivers messages of one channel (a file outbox, SMTP, an SMS gateway). */
export interface MessageTransport {
  send(message: OutgoingMessage): Promise<void>;
}
