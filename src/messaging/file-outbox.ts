import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MessageTransport, OutgoingMessage } from './message';

/**
 * The default transport: each message becomes one JSON file in OUTBOX_DIR,
 * `{channel, to, subject, text, created_at}` (a push adds `data`). Files are written under a temporary name and
 * renamed, so a reader never sees half a message. Names sort by creation time.
 */
export class FileOutbox implements MessageTransport {
  constructor(private readonly dir: string) {}

  async send(message: OutgoingMessage): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const createdAt = new Date();
    const name = `${createdAt.toISOString().replace(/[:.]/g, '-')}-${message.channel}-${randomBytes(6).toString('hex')}.json`;
    const body = {
      channel: message.channel,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.data ? { data: message.data } : {}),
      created_at: createdAt.toISOString(),
    };
    const temporary = path.join(this.dir, `.${name}.tmp`);
    await writeFile(temporary, JSON.stringify(body, null, 2) + '\n', { mode: 0o600 });
    await rename(temporary, path.join(this.dir, name));
  }
}
