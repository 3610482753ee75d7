/*
 * Shaping Latin text without shaping every word.
 *
 * pdfkit lays out text word by word through fontkit's OpenType shaper and caches each word. An
 * export's words are mostly unique (order codes, amounts, times), so shaping was most of the time
 * left after pdfmake was gone (BENCHMARKS.md, "Figures behind the code"). For
 * Latin text the shaper does two things that matter here: it maps characters to glyphs and it
 * kerns pairs of glyphs. Both are looked up once per character and once per pair of characters
 * (shaped by fontkit itself, so the font's own rules decide), and a word is put together from
 * them. A character or pair the shaper treats otherwise (a ligature, a substituted or offset
 * glyph, a character outside Latin-1) sends the whole word to fontkit, as before.
 */

/** The parts of fontkit's glyph that pdfkit reads. */
interface Glyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}

interface FontkitPosition {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}

/** The parts of a fontkit font used here. */
interface FontkitFont {
  unitsPerEm: number;
  glyphForCodePoint(codePoint: number): Glyph;
  layout(text: string): { glyphs: Glyph[]; positions: FontkitPosition[] };
}

/** A glyph run as pdfkit's EmbeddedFont.layoutRun returns it: positions in thousandths of the font size. */
export interface PdfKitRun {
  glyphs: Glyph[];
  positions: (FontkitPosition & { advanceWidth: number })[];
  advanceWidth: number;
}

/** The parts of pdfkit's EmbeddedFont this hooks into. */
export interface PdfKitEmbeddedFont {
  font: FontkitFont;
  layoutRun(text: string, features?: unknown): PdfKitRun;
}

/** Printable Basic Latin and Latin-1 (no controls, no soft hyphen): characters that shape one to one. */
const isLatin = (c: number) => (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff && c !== 0xad);

export class PairShaper {
  private readonly scale: number;
  /** Per code point: its glyph, or null when shaping it alone gives something else. */
  private readonly glyphs = new Map<number, Glyph | null>();
  /** Per pair of code points: the kerning added to the first glyph's advance (font units), or null when the pair does not shape as two plain glyphs. */
  private readonly kerning = new Map<number, number | null>();

  constructor(private readonly font: FontkitFont) {
    this.scale = 1000 / font.unitsPerEm;
  }

  /** `text` laid out as fontkit would, or null when it must be shaped in full. */
  run(text: string): PdfKitRun | null {
    const glyphs: Glyph[] = [];
    const codes: number[] = [];
    for (const char of text) {
      const code = char.codePointAt(0)!;
      const glyph = this.glyphOf(code);
      if (glyph === null) return null;
      glyphs.push(glyph);
      codes.push(code);
    }
    const positions: PdfKitRun['positions'] = [];
    let advanceWidth = 0;
    for (let i = 0; i < glyphs.length; i++) {
      let advance = glyphs[i].advanceWidth;
      if (i + 1 < glyphs.length) {
        const kern = this.kernOf(codes[i], codes[i + 1]);
        if (kern === null) return null;
        advance += kern;
      }
      const xAdvance = advance * this.scale;
      positions.push({ xAdvance, yAdvance: 0, xOffset: 0, yOffset: 0, advanceWidth: glyphs[i].advanceWidth * this.scale });
      advanceWidth += xAdvance;
    }
    return { glyphs, positions, advanceWidth };
  }

  private glyphOf(code: number): Glyph | null {
    let glyph = this.glyphs.get(code);
    if (glyph === undefined) {
      glyph = null;
      if (isLatin(code)) {
        const shaped = this.font.layout(String.fromCodePoint(code));
        const own = this.font.glyphForCodePoint(code);
        const [p] = shaped.positions;
        if (own.id !== 0 && shaped.glyphs.length === 1 && shaped.glyphs[0].id === own.id && !p.xOffset && !p.yOffset && !p.yAdvance && p.xAdvance === own.advanceWidth) {
          glyph = shaped.glyphs[0];
        }
      }
      this.glyphs.set(code, glyph);
    }
    return glyph;
  }

  private kernOf(first: number, second: number): number | null {
    const key = first * 0x110000 + second;
    let kern = this.kerning.get(key);
    if (kern === undefined) {
      kern = null;
      const shaped = this.font.layout(String.fromCodePoint(first, second));
      const [a, b] = [this.glyphs.get(first)!, this.glyphs.get(second)!];
      const [pa, pb] = shaped.positions;
      const plain = shaped.glyphs.length === 2 && shaped.glyphs[0].id === a.id && shaped.glyphs[1].id === b.id;
      if (plain && !pa.xOffset && !pa.yOffset && !pa.yAdvance && !pb.xOffset && !pb.yOffset && !pb.yAdvance && pb.xAdvance === b.advanceWidth) {
        kern = pa.xAdvance - a.advanceWidth;
      }
      this.kerning.set(key, kern);
    }
    return kern;
  }
}

/**
 * Makes a pdfkit font lay out Latin words through `shaper` (pdfkit's own word cache still sits in
 * front of it); other words, and calls with OpenType features, go to fontkit as before. The
 * shaper may serve many documents: glyphs and kerning belong to the font file, not to a document.
 */
export function shapeByPairs(font: PdfKitEmbeddedFont, shaper: PairShaper): void {
  const shapeFully = font.layoutRun.bind(font);
  font.layoutRun = (text, features) => (features === undefined ? shaper.run(text) : null) ?? shapeFully(text, features);
}
