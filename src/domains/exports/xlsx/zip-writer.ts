import type { Writable } from 'node:stream';
import { crc32, createDeflateRaw, deflateRawSync, type DeflateRaw } from 'node:zlib';

/** The largest size or offset a plain ZIP field holds; beyond it (or at it) ZIP64 records take over. */
const ZIP32_MAX = 0xffff_ffff;
/** Bit 3: sizes and CRC follow the data; bit 11: names are UTF-8. */
const STREAMED_FLAGS = 0x0808;
const KNOWN_SIZE_FLAGS = 0x0800;
const DEFLATE = 8;
const VERSION = 20;
const VERSION_ZIP64 = 45;

const needsZip64 = (n: number) => n >= ZIP32_MAX;

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

/** An entry's central directory header; sizes and offset of 4 GiB and more go to a ZIP64 extra field. */
function centralHeader(r: CentralRecord, stamp: { time: number; date: number }): Buffer {
  const wide = [r.size, r.compressed, r.offset].filter(needsZip64);
  const extra = Buffer.alloc(wide.length > 0 ? 4 + 8 * wide.length : 0);
  if (wide.length > 0) {
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(8 * wide.length, 2);
    // In this order, and only those whose own field says 0xFFFFFFFF.
    wide.forEach((n, i) => extra.writeBigUInt64LE(BigInt(n), 4 + 8 * i));
  }
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(wide.length > 0 ? VERSION_ZIP64 : VERSION, 4);
  header.writeUInt16LE(wide.length > 0 ? VERSION_ZIP64 : VERSION, 6);
  header.writeUInt16LE(r.flags, 8);
  header.writeUInt16LE(DEFLATE, 10);
  header.writeUInt16LE(stamp.time, 12);
  header.writeUInt16LE(stamp.date, 14);
  header.writeUInt32LE(r.crc, 16);
  header.writeUInt32LE(Math.min(r.compressed, ZIP32_MAX), 20);
  header.writeUInt32LE(Math.min(r.size, ZIP32_MAX), 24);
  header.writeUInt16LE(r.name.length, 28);
  header.writeUInt16LE(extra.length, 30);
  header.writeUInt32LE(Math.min(r.offset, ZIP32_MAX), 42);
  return Buffer.concat([header, r.name, extra]);
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
      // Sizes of 4 GiB and more take 8 bytes each (as archiver and Go's archive/zip write them);
      // readers take sizes from the central directory, where the ZIP64 extra field has them too.
      const wide = needsZip64(record.size) || needsZip64(record.compressed);
      const descriptor = Buffer.alloc(wide ? 24 : 16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(record.crc, 4);
      if (wide) {
        descriptor.writeBigUInt64LE(BigInt(record.compressed), 8);
        descriptor.writeBigUInt64LE(BigInt(record.size), 16);
      } else {
        descriptor.writeUInt32LE(record.compressed, 8);
        descriptor.writeUInt32LE(record.size, 12);
      }
      this.emit(descriptor);
      this.records.push(record);
    });
  }

  /** Writes the central directory (with ZIP64 records where sizes or offsets need them) and ends the output. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const r of this.records) this.emit(centralHeader(r, this.stamp));
    const size = this.offset - start;
    const count = this.records.length;
    const zip64 = needsZip64(start) || needsZip64(size) || count >= 0xffff;
    if (zip64) {
      const record64At = this.offset;
      const record64 = Buffer.alloc(56);
      record64.writeUInt32LE(0x06064b50, 0);
      record64.writeBigUInt64LE(44n, 4);
      record64.writeUInt16LE(VERSION_ZIP64, 12);
      record64.writeUInt16LE(VERSION_ZIP64, 14);
      record64.writeBigUInt64LE(BigInt(count), 24);
      record64.writeBigUInt64LE(BigInt(count), 32);
      record64.writeBigUInt64LE(BigInt(size), 40);
      record64.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      locator.writeBigUInt64LE(BigInt(record64At), 8);
      locator.writeUInt32LE(1, 16);
      this.emit(Buffer.concat([record64, locator]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Math.min(count, 0xffff), 8);
    end.writeUInt16LE(Math.min(count, 0xffff), 10);
    end.writeUInt32LE(Math.min(size, ZIP32_MAX), 12);
    end.writeUInt32LE(Math.min(start, ZIP32_MAX), 16);
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
    // A download given up on mid-entry: the deflater's native memory is let go at once.
    const closed = () => this.deflater.destroy();
    output.once('close', closed);
    this.deflater.once('end', () => output.off('close', closed));
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
