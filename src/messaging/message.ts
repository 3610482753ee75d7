/** One outgoing e-mail or SMS, in the shape the file outbox stores (see operations.md). */
export interface OutgoingMessage {
  channel: 'email' | 'sms';
  to: string;
  /** E-mail subject; null for SMS. */
  subject: string | null;
  text: string;
}

/** Something that delivers messages of one channel (a file outbox, SMTP, an SMS gateway). */
export interface MessageTransport {
  send(message: OutgoingMessage): Promise<void>;
}
