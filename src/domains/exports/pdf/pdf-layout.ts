import { readFileSync } from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { PairShaper, shapeByPairs, type PdfKitEmbeddedFont } from './pair-shaping';
import { unpackRows, type PdfInput } from './pdf-input';

/*
 * The PDF is written with pdfkit directly. pdfmake (which sits on pdfkit) measured and styled
 * every one of the 65,000 cells of a 5,000-row export through its generic document model and took
 * about 7 s of CPU for it; a table of one style needs none of that. Here each distinct cell text
 * is measured and encoded once, rows are laid out in one pass (so the page count is known before
 * the first page is written and "Page X of Y" goes straight in), and a page's table is written as
 * one content string of fills, rules and text.
 */

const FONTS_DIR = path.join(path.dirname(require.resolve('pdfmake/package.json')), 'fonts', 'Roboto');
/** Read once per thread; each document parses its own copy (pdfkit subsets what it uses). */
const FONT_FILES = {
  regular: readFileSync(path.join(FONTS_DIR, 'Roboto-Regular.ttf')),
  bold: readFileSync(path.join(FONTS_DIR, 'Roboto-Medium.ttf')),
};

/**
 * Shapers per font file, made from the first document's fonts and kept for the thread's later
 * documents (a long-lived rendering thread then shapes each pair of characters once, ever).
 */
const SHAPERS = new Map<keyof typeof FONT_FILES, PairShaper>();

const MARGIN = 28;
const BOTTOM_MARGIN = 36;
/** A4 in points. */
const PAGE_SIZE = { portrait: [595.28, 841.89], landscape: [841.89, 595.28] } as const;
const BODY_SIZE = 7.5;
/** Cell padding: left and right, top and bottom. */
const PAD_X = 3;
const PAD_Y = 2;
/** Rules: around the header and the totals row and under the table, and between rows. */
const HEAVY = 0.8;
const LIGHT = 0.2;
const RULE_COLOUR = '#9E9E9E';
/** Every other row. */
const STRIPE_COLOUR = '#F5F5F5';
const TEXT_COLOUR = '#000000';
const META_COLOUR = '#424242';
const FOOTER_COLOUR = '#616161';
const DEFAULT_PRIMARY = '#1F4E79';
/** The logo is fitted into this box, in a column this wide. */
const LOGO_FIT: [number, number] = [140, 50];
const LOGO_COLUMN = 150;

/** What this file uses of pdfkit's embedded font (the document's current font after `doc.font(name)`). */
interface PdfKitFont {
  id: string;
  /** In thousandths of the font size. */
  ascender: number;
  descender: number;
  lineGap: number;
  ref(): unknown;
  /** Glyph ids (4 hex digits each, added to the font's subset) and their positions in thousandths. */
  encode(text: string): [string[], GlyphPosition[]];
  widthOfString(text: string, size: number): number;
}

interface GlyphPosition {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
  advanceWidth: number;
}

/** A number as PDF content writes it (to a hundredth of a point). */
const num = (n: number) => String(Math.round(n * 100) / 100);

/**
 * Where text goes inside one text object (BT … ET). The page's coordinates run downwards (pdfkit
 * flips them), so the first line is placed with a text matrix that flips back (text stands
 * upright); later ones move from the line before (Td), which is shorter to write. Positions are
 * rounded to what `num` writes before moving, so rounding never adds up.
 */
class TextObject {
  private x = NaN;
  private y = NaN;

  constructor(readonly out: string[]) {}

  moveTo(x: number, y: number): void {
    const [rx, ry] = [Math.round(x * 100) / 100, Math.round(y * 100) / 100];
    if (Number.isNaN(this.x)) this.out.push(`1 0 0 -1 ${rx} ${ry} Tm`);
    // Text space runs upwards: a move down the page is a negative y.
    else this.out.push(`${num(rx - this.x)} ${num(this.y - ry)} Td`);
    [this.x, this.y] = [rx, ry];
  }

  /** The next move places absolutely (after a text matrix set elsewhere). */
  lost(): void {
    this.x = this.y = NaN;
  }
}

/** #RRGGBB as the operands of `rg` / `RG`. */
function rgb(colour: string): string {
  return [1, 3, 5].map((i) => String(Math.round((parseInt(colour.slice(i, i + 2), 16) / 255) * 1e6) / 1e6)).join(' ');
}

const WHITE = rgb('#FFFFFF');
const BLACK = rgb(TEXT_COLOUR);

/** The branding's primary colour when it is #RRGGBB, else the default one. */
const primaryOf = (colour: string) => (/^#[0-9a-f]{6}$/i.test(colour) ? colour : DEFAULT_PRIMARY);

/** A font at a size: measures text and writes it, each distinct text encoded once. */
class Face {
  readonly ascent: number;
  readonly lineHeight: number;
  private readonly shown = new Map<string, string | null>();

  constructor(
    readonly font: PdfKitFont,
    readonly size: number,
  ) {
    this.ascent = (font.ascender / 1000) * size;
    this.lineHeight = ((font.ascender + font.lineGap - font.descender) / 1000) * size;
  }

  width(text: string): number {
    return this.font.widthOfString(text, this.size);
  }

  /** Shows `text` with its baseline starting at (x, y), in a text object with this face selected. */
  show(text: string, x: number, y: number, to: TextObject): void {
    let operand = this.shown.get(text);
    if (operand === undefined) {
      operand = this.operand(text);
      this.shown.set(text, operand);
    }
    if (operand !== null) {
      to.moveTo(x, y);
      to.out.push(operand);
    } else {
      this.showPlaced(text, x, y, to.out);
      to.lost();
    }
  }

  /** The TJ operation of a text, kerning included; null when a glyph is offset (marks), see showPlaced. */
  private operand(text: string): string | null {
    const [glyphs, positions] = this.font.encode(text);
    const parts: string[] = [];
    let hex = '';
    for (let i = 0; i < glyphs.length; i++) {
      const p = positions[i];
      if (p.xOffset || p.yOffset) return null;
      hex += glyphs[i];
      const kern = p.xAdvance - p.advanceWidth;
      if (kern !== 0) {
        parts.push(`<${hex}> ${Math.round(-kern * 10) / 10}`);
        hex = '';
      }
    }
    if (hex) parts.push(`<${hex}>`);
    return `[${parts.join(' ')}] TJ`;
  }

  /** Each glyph placed on its own, for texts whose glyphs are offset from the pen (combining marks). */
  private showPlaced(text: string, x: number, y: number, out: string[]): void {
    const [glyphs, positions] = this.font.encode(text);
    const scale = this.size / 1000;
    for (let i = 0; i < glyphs.length; i++) {
      const p = positions[i];
      out.push(`1 0 0 -1 ${num(x + p.xOffset * scale)} ${num(y - p.yOffset * scale)} Tm <${glyphs[i]}> Tj`);
      x += p.xAdvance * scale;
      y -= p.yAdvance * scale;
    }
  }
}

interface Line {
  text: string;
  width: number;
}

/**
 * A text broken into lines of at most `width`: at spaces, and within a word wider than the whole
 * line; line breaks in the text are kept. No text is no line.
 */
function wrap(face: Face, text: string, width: number): Line[] {
  const lines: Line[] = [];
  const line = (t: string) => lines.push({ text: t, width: face.width(t) });
  if (text === '') return lines;
  for (const paragraph of text.split(/\r?\n/)) {
    const whole = paragraph.trimEnd();
    const w = face.width(whole);
    if (w <= width) {
      lines.push({ text: whole, width: w });
      continue;
    }
    let current = '';
    for (const word of whole.split(' ')) {
      const candidate = current === '' ? word : `${current} ${word}`;
      if (face.width(candidate) <= width) {
        current = candidate;
        continue;
      }
      if (current !== '') line(current);
      current = word;
      // A word wider than the line is broken where it no longer fits (by code points).
      let chars = [...current];
      while (chars.length > 1 && face.width(current) > width) {
        let fit = 1;
        while (fit < chars.length - 1 && face.width(chars.slice(0, fit + 1).join('')) <= width) fit++;
        line(chars.slice(0, fit).join(''));
        chars = chars.slice(fit);
        current = chars.join('');
      }
    }
    line(current);
  }
  return lines;
}

/** A column of the table: where it is, and its cells' lines by text (most texts recur). */
class Column {
  private readonly lines = new Map<Face, Map<string, Line[]>>();

  constructor(
    readonly x: number,
    readonly width: number,
    readonly alignment: 'left' | 'right',
  ) {}

  linesOf(face: Face, text: string): Line[] {
    let byText = this.lines.get(face);
    if (!byText) this.lines.set(face, (byText = new Map()));
    let lines = byText.get(text);
    if (!lines) byText.set(text, (lines = wrap(face, text, this.width - 2 * PAD_X)));
    return lines;
  }

  /** Where a line of this width starts. */
  xOf(line: Line): number {
    return this.alignment === 'right' ? this.x + this.width - PAD_X - line.width : this.x + PAD_X;
  }
}

/** A row laid out: its cells' lines, its face and its height without the rule above it. */
interface Row {
  cells: Line[][];
  face: Face;
  height: number;
}

function layOutRow(columns: Column[], face: Face, cells: readonly string[], maxLines: number): Row {
  let lines = 1;
  const laid = columns.map((column, i) => {
    let cellLines = column.linesOf(face, cells[i] ?? '');
    // A cell taller than a page (never in practice) is cut to the page.
    if (cellLines.length > maxLines) cellLines = cellLines.slice(0, maxLines);
    lines = Math.max(lines, cellLines.length);
    return cellLines;
  });
  return { cells: laid, face, height: PAD_Y + lines * face.lineHeight + PAD_Y };
}

/** The rows of a page: the header row from `top` on, then body rows [first, end); no table at all when `table` is false. */
interface PageRows {
  top: number;
  first: number;
  end: number;
  table: boolean;
}

interface Table {
  columns: Column[];
  header: Row;
  /** Data rows, then the totals row when there is one. */
  body: Row[];
  hasTotals: boolean;
  /** The header row's fill: the primary colour. */
  headerFill: string;
}

/** The rule above body row k (k = body.length: under the last row). */
function ruleAbove(table: Table, k: number): number {
  if (k === 0 || k === table.body.length) return HEAVY;
  return table.hasTotals && k === table.body.length - 1 ? HEAVY : LIGHT;
}

/**
 * Splits the table into pages: the header row on each, rows never split (a row that does not fit
 * goes to the next page), the rule under a page's last row counted in. `firstTop` is where the
 * table starts on the first page, under the heading; when the heading leaves no room there for
 * the header and one row, the table starts on the second page.
 */
function paginate(table: Table, firstTop: number, pageHeight: number): PageRows[] {
  const bottom = pageHeight - BOTTOM_MARGIN;
  const n = table.body.length;
  const pages: PageRows[] = [];
  let top = firstTop;
  let k = 0;
  for (;;) {
    const page: PageRows = { top, first: k, end: k, table: true };
    let y = top + HEAVY + table.header.height;
    const heightOf = (i: number) => ruleAbove(table, i) + table.body[i].height;
    if (top > MARGIN && y + (k < n ? heightOf(k) : 0) + ruleAbove(table, Math.min(k + 1, n)) > bottom) {
      page.table = false;
    } else {
      // Rows while they fit, with the rule under them; a fresh page takes at least one.
      for (; k < n; k++) {
        if (k > page.first && y + heightOf(k) + ruleAbove(table, k + 1) > bottom) break;
        y += heightOf(k);
      }
    }
    page.end = k;
    pages.push(page);
    if (page.table && k >= n) return pages;
    top = MARGIN;
  }
}

/** The operators (in the page's downward coordinates) that draw one page's part of the table. */
function drawTable(table: Table, page: PageRows, faces: Map<Face, string>, out: string[]): void {
  const left = table.columns[0].x;
  const right = table.columns[table.columns.length - 1].x + table.columns[table.columns.length - 1].width;
  const rows: { row: Row; top: number; stripe: string | null }[] = [];
  const rules: { y: number; width: number }[] = [];
  let y = page.top;
  rules.push({ y, width: HEAVY });
  y += HEAVY;
  rows.push({ row: table.header, top: y, stripe: table.headerFill });
  y += table.header.height;
  for (let k = page.first; k < page.end; k++) {
    const rule = ruleAbove(table, k);
    rules.push({ y, width: rule });
    y += rule;
    // Body row k is table row k + 1 (the header is row 0): even table rows are striped.
    rows.push({ row: table.body[k], top: y, stripe: (k + 1) % 2 === 0 ? STRIPE_COLOUR : null });
    y += table.body[k].height;
  }
  rules.push({ y, width: ruleAbove(table, page.end) });

  // Fills first (text and rules go over them), one path per colour.
  for (const colour of new Set(rows.map((r) => r.stripe))) {
    if (colour === null) continue;
    out.push(`${rgb(colour)} rg`);
    for (const r of rows) if (r.stripe === colour) out.push(`${num(left)} ${num(r.top)} ${num(right - left)} ${num(r.row.height)} re`);
    out.push('f');
  }
  out.push(`${rgb(RULE_COLOUR)} RG`);
  for (const width of [LIGHT, HEAVY]) {
    const these = rules.filter((r) => r.width === width);
    if (these.length === 0) continue;
    out.push(`${num(width)} w`);
    for (const r of these) out.push(`${num(left)} ${num(r.y + width / 2)} m ${num(right)} ${num(r.y + width / 2)} l`);
    out.push('S');
  }
  // Text: one text object for each run of rows in the same face and colour.
  let open = '';
  let text = new TextObject(out);
  for (const [i, r] of rows.entries()) {
    // The header row is white on the primary colour; the rest black.
    const state = `${i === 0 ? WHITE : BLACK} rg /${faces.get(r.row.face)} ${num(r.row.face.size)} Tf`;
    if (state !== open) {
      if (open) out.push('ET');
      out.push(`BT ${state}`);
      open = state;
      text = new TextObject(out);
    }
    const face = r.row.face;
    const baseline = r.top + PAD_Y + face.ascent;
    for (let c = 0; c < r.row.cells.length; c++) {
      const column = table.columns[c];
      const lines = r.row.cells[c];
      for (let l = 0; l < lines.length; l++) if (lines[l].text !== '') face.show(lines[l].text, column.xOf(lines[l]), baseline + l * face.lineHeight, text);
    }
  }
  out.push('ET');
}

/** The workspace's logo in its column, fitted into LOGO_FIT; its height, or null when it cannot be read. */
function drawLogo(doc: PDFKit.PDFDocument, logo: string): number | null {
  try {
    const image = (doc as unknown as { openImage(src: string): { width: number; height: number } }).openImage(logo);
    const scale = Math.min(LOGO_FIT[0] / image.width, LOGO_FIT[1] / image.height);
    doc.image(logo, MARGIN, MARGIN, { width: image.width * scale, height: image.height * scale });
    return image.height * scale;
  } catch {
    return null; // not a readable PNG or JPEG: left out, as an unfetchable logo is
  }
}

/**
 * Letterhead (logo, name in the primary colour, address, registrations), title, one line per
 * filter, the generated line: with pdfkit's own text layout. Returns where the table starts.
 */
function drawHeading(doc: PDFKit.PDFDocument, input: PdfInput, contentWidth: number): number {
  const b = input.branding;
  const primary = primaryOf(b.primaryColor);
  const logoHeight = b.logo ? drawLogo(doc, b.logo) : null;
  const withLogo = logoHeight !== null;
  const x = withLogo ? MARGIN + LOGO_COLUMN : MARGIN;
  const details = { width: withLogo ? contentWidth - LOGO_COLUMN : contentWidth, align: withLogo ? 'right' : 'left' } as const;
  const registrations = [b.gstin && `GSTIN: ${b.gstin}`, b.fssai && `FSSAI: ${b.fssai}`, b.contactNumber && `Phone: ${b.contactNumber}`].filter(Boolean).join('   ');
  doc.font('bold').fontSize(13).fillColor(primary).text(b.name, x, MARGIN, details);
  doc.font('regular').fontSize(BODY_SIZE).fillColor(TEXT_COLOUR);
  for (const line of [b.address, registrations]) if (line) doc.text(line, x, doc.y, details);
  let y = Math.max(doc.y, MARGIN + (logoHeight ?? 0));
  doc.font('bold').fontSize(16).fillColor(primary).text(input.title, MARGIN, y + 10, { width: contentWidth });
  y = doc.y + 2;
  doc.font('regular').fontSize(8.5).fillColor(META_COLOUR);
  for (const line of [...input.filterLines, input.summaryLine]) {
    doc.text(line, MARGIN, y, { width: contentWidth });
    y = doc.y;
  }
  return y + 8;
}

/** The footer: the workspace's name on the left, "Page X of Y" on the right. */
function drawFooter(face: Face, resource: string, name: string, page: number, pages: number, pageWidth: number, pageHeight: number, out: string[]): void {
  const half = (pageWidth - 2 * MARGIN) / 2;
  const top = pageHeight - BOTTOM_MARGIN + 10;
  const counter = `Page ${page} of ${pages}`;
  out.push(`${rgb(FOOTER_COLOUR)} rg`, `BT /${resource} ${num(face.size)} Tf`);
  const text = new TextObject(out);
  wrap(face, name, half).forEach((line, l) => face.show(line.text, MARGIN, top + l * face.lineHeight + face.ascent, text));
  face.show(counter, pageWidth - MARGIN - face.width(counter), top + face.ascent, text);
  out.push('ET');
}

/** Lays out and writes the PDF (CPU-bound: run it off the request thread, see PdfRenderer). */
export function layOutPdf(input: PdfInput): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const [pageWidth, pageHeight] = PAGE_SIZE[input.orientation];
    const b = input.branding;
    const doc = new PDFDocument({
      size: [pageWidth, pageHeight],
      margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM_MARGIN },
      info: { Title: `${input.title} – ${b.name}`, Author: b.name, Creator: 'Sales distribution service' },
      compress: true,
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      const fontOf = (name: keyof typeof FONT_FILES) => {
        doc.registerFont(name, FONT_FILES[name]);
        const font = (doc.font(name) as unknown as { _font: PdfKitFont & PdfKitEmbeddedFont })._font;
        let shaper = SHAPERS.get(name);
        if (!shaper) SHAPERS.set(name, (shaper = new PairShaper(font.font)));
        shapeByPairs(font, shaper);
        return font;
      };
      const fonts = { regular: fontOf('regular'), bold: fontOf('bold') };
      const body = new Face(fonts.regular, BODY_SIZE);
      const strong = new Face(fonts.bold, BODY_SIZE);
      const faces = new Map([
        [body, fonts.regular.id],
        [strong, fonts.bold.id],
      ]);

      const contentWidth = pageWidth - 2 * MARGIN;
      const sum = input.columns.reduce((s, c) => s + c.width, 0);
      let x = MARGIN;
      const columns = input.columns.map((c) => {
        const column = new Column(x, (contentWidth * c.width) / sum, c.alignment);
        x += column.width;
        return column;
      });
      const tableTop = drawHeading(doc, input, contentWidth);
      const header = layOutRow(columns, strong, input.columns.map((c) => c.header), Infinity);
      const maxLines = Math.max(1, Math.floor((pageHeight - MARGIN - BOTTOM_MARGIN - header.height - 3 * HEAVY - 2 * PAD_Y) / body.lineHeight));
      const rows = unpackRows(input.rows).map((cells) => layOutRow(columns, body, cells, maxLines));
      if (input.totals) rows.push(layOutRow(columns, strong, input.totals, maxLines));
      const table: Table = { columns, header, body: rows, hasTotals: input.totals !== null, headerFill: primaryOf(b.primaryColor) };
      const pages = paginate(table, tableTop, pageHeight);
      const footerName = b.footerName || b.name;

      pages.forEach((page, i) => {
        if (i > 0) doc.addPage();
        const resources = (doc.page as unknown as { fonts: Record<string, unknown> }).fonts;
        resources[fonts.regular.id] ??= fonts.regular.ref();
        resources[fonts.bold.id] ??= fonts.bold.ref();
        // One content string per page, its graphics state kept to itself (q … Q).
        const out: string[] = ['q'];
        if (page.table) drawTable(table, page, faces, out);
        drawFooter(body, fonts.regular.id, footerName, i + 1, pages.length, pageWidth, pageHeight, out);
        out.push('Q');
        doc.addContent(out.join('\n'));
      });
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}
