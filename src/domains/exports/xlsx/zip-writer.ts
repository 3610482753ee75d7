import type { Writable } from 'node:stream';
import { crc32, createDeflateRaw, deflateRawSync, type DeflateRaw } from 'node:zlib';

/** ZIP (without ZIP64) cannot describe an entry or an archive beyond 4 GiB − 1. */
const ZIP32_LIMIT = 0xffff_ffff;
/** Bit 3: sizes and CRC follow the data; bit 11: names are UTF-8. */
const STREAMED_FLAGS = 0x0808;
const KNOWN_SIZE_FLAGS = 0x0800;
const DEFLATE = 8;
const VERSION = 20;

interface CentralRecord {
  name: Buffer;
  flags: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** DOS date and time of a moment (local fields as UTC: the archive carries no time zone). */
function dosDateTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/**
 * A ZIP archive written front to back into a stream, entries deflated: small parts whole, one
 * large part streamed through a deflater whose backpressure the caller awaits, so no more than
 * a batch of uncompressed data is ever held.
 */
export class ZipWriter {
  private readonly records: CentralRecord[] = [];
  private readonly stamp: { time: number; date: number };
  private offset = 0;

  constructor(
    private readonly output: Writable,
    modified: Date,
  ) {
    this.stamp = dosDateTime(modified);
  }

  /** Adds a part given whole. */
  addFile(name: string, text: string): void {
    const data = Buffer.from(text, 'utf8');
    const compressed = deflateRawSync(data);
    const record = this.startEntry(name, KNOWN_SIZE_FLAGS, { crc: crc32(data), compressed: compressed.length, size: data.length });
    this.emit(compressed);
    this.records.push(record);
  }

  /** Opens a part written piece by piece; only one may be open at a time. */
  openEntry(name: string): ZipEntryStream {
    const record = this.startEntry(name, STREAMED_FLAGS, { crc: 0, compressed: 0, size: 0 });
    return new ZipEntryStream(this.output, record, (written) => {
      this.offset += written;
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(record.crc, 4);
      descriptor.writeUInt32LE(record.compressed, 8);
      descriptor.writeUInt32LE(record.size, 12);
      this.emit(descriptor);
      this.records.push(record);
    });
  }

  /** Writes the central directory and ends the output once it has taken everything. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const r of this.records) {
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(VERSION, 4);
      header.writeUInt16LE(VERSION, 6);
      header.writeUInt16LE(r.flags, 8);
      header.writeUInt16LE(DEFLATE, 10);
      header.writeUInt16LE(this.stamp.time, 12);
      header.writeUInt16LE(this.stamp.date, 14);
      header.writeUInt32LE(r.crc, 16);
      header.writeUInt32LE(r.compressed, 20);
      header.writeUInt32LE(r.size, 24);
      header.writeUInt16LE(r.name.length, 28);
      header.writeUInt32LE(r.offset, 42);
      this.emit(Buffer.concat([header, r.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.records.length, 8);
    end.writeUInt16LE(this.records.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    if (this.offset > ZIP32_LIMIT) throw new Error('The export is larger than 4 GiB, more than an XLSX file without ZIP64 can hold');
    this.emit(end);
    await new Promise<void>((resolve, reject) => this.output.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }

  private startEntry(name: string, flags: number, sizes: { crc: number; compressed: number; size: number }): CentralRecord {
    const nameBytes = Buffer.from(name, 'utf8');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(flags, 6);
    header.writeUInt16LE(DEFLATE, 8);
    header.writeUInt16LE(this.stamp.time, 10);
    header.writeUInt16LE(this.stamp.date, 12);
    header.writeUInt32LE(sizes.crc, 14);
    header.writeUInt32LE(sizes.compressed, 18);
    header.writeUInt32LE(sizes.size, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    const record: CentralRecord = { name: nameBytes, flags, ...sizes, offset: this.offset };
    this.emit(Buffer.concat([header, nameBytes]));
    return record;
  }

  private emit(bytes: Buffer): void {
    this.offset += bytes.length;
    this.output.write(bytes);
  }
}

/** One streamed ZIP entry: uncompressed bytes in, deflated bytes straight to the archive's output. */
export class ZipEntryStream {
  private readonly deflater: DeflateRaw = createDeflateRaw();
  private written = 0;
  /** A deflater error, thrown by the next call (an unheard 'error' event would end the process). */
  private failure: Error | null = null;

  constructor(
    private readonly output: Writable,
    private readonly record: CentralRecord,
    private readonly onEnd: (compressedBytes: number) => void,
  ) {
    this.deflater.on('error', (err) => {
      this.failure = err;
    });
    this.deflater.on('data', (chunk: Buffer) => {
      this.written += chunk.length;
      // The output's backpressure reaches the deflater through write()'s answer: it pauses until drained.
      if (!this.output.write(chunk)) {
        this.deflater.pause();
        this.output.once('drain', () => this.deflater.resume());
      }
    });
  }

  /**
   * Adds bytes; resolves once the deflater has consumed them (so the caller may reuse `data`) and
   * the output is not backed up (the deflater holds its callback until then).
   */
  async write(data: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    this.record.crc = crc32(data, this.record.crc);
    this.record.size += data.length;
    if (this.record.size > ZIP32_LIMIT) throw new Error('A sheet larger than 4 GiB cannot be written without ZIP64');
    await new Promise<void>((resolve, reject) => this.deflater.write(data, (err) => (err ? reject(err) : resolve())));
  }

  /** Flushes the deflater and closes the entry with its data descriptor; fails if the output closes first. */
  async end(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.output.destroyed) throw new Error('The export output was closed before the export was written');
    await new Promise<void>((resolve, reject) => {
      const settle = (err?: Error) => {
        this.deflater.off('error', settle);
        this.deflater.off('end', settle);
        this.output.off('close', closed);
        if (err) reject(err);
        else resolve();
      };
      // A paused deflater (the output backed up) never ends if the output goes away meanwhile.
      const closed = () => settle(new Error('The export output was closed before the export was written'));
      this.deflater.once('error', settle);
      this.deflater.once('end', settle);
      this.output.once('close', closed);
      this.deflater.end();
    });
    this.record.compressed = this.written;
    this.onEnd(this.written);
  }
}
