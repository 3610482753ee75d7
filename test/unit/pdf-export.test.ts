import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { PairShaper, type PdfKitEmbeddedFont } from '../../src/domains/exports/pdf/pair-shaping';
import { PrintedRows, unpackRows, type PdfInput } from '../../src/domains/exports/pdf/pdf-input';
import { layOutPdf } from '../../src/domains/exports/pdf/pdf-layout';
import { PdfRenderer } from '../../src/domains/exports/pdf/pdf-renderer';

/**
 * The PDF writer without the app: the pair shaper against fontkit's own shaping, rows packed for
 * the rendering thread, the layout read back with poppler (pdftotext, pdfinfo), and the pool of
 * rendering threads. The REST and job tests check the PDFs an export makes end to end.
 */

const run = promisify(execFile);
const FONTS = path.join(path.dirname(require.resolve('pdfmake/package.json')), 'fonts', 'Roboto');

/** fontkit's font as pdfkit opens it, with pdfkit's scaling (thousandths of the font size). */
function pdfkitFont(file: string): PdfKitEmbeddedFont & { font: { layout(text: string): { glyphs: { id: number }[]; positions: { xAdvance: number; xOffset: number; yOffset: number }[] } } } {
  const doc = new PDFDocument();
  doc.registerFont('f', readFileSync(path.join(FONTS, file)));
  return (doc.font('f') as unknown as { _font: ReturnType<typeof pdfkitFont> })._font;
}

/** A deterministic stream of numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

const LATIN_1 = Array.from({ length: 0xff - 0x20 + 1 }, (_, i) => String.fromCharCode(0x20 + i)).filter((c) => c <= '~' || (c >= '\u00a0' && c !== '\u00ad'));

describe('PairShaper', () => {
  for (const file of ['Roboto-Regular.ttf', 'Roboto-Medium.ttf']) {
    it(`lays out Latin words exactly as fontkit shapes them, kerning included (${file})`, () => {
      const font = pdfkitFont(file);
      const shaper = new PairShaper(font.font as never);
      const next = random(7);
      const words = ['AVATAR', 'Tokyo', 'WAVE', 'Yvonne', "L'Oréal", 'naïve', 'ORD-2026-000123', '1,56,28,125.00', '2026-01-01 ', 'Forwarded ', 'bank_transfer'];
      for (let i = 0; i < 3_000; i++) words.push(Array.from({ length: 1 + Math.floor(next() * 10) }, () => LATIN_1[Math.floor(next() * LATIN_1.length)]).join(''));
      let kerned = 0;
      for (const word of words) {
        const fast = shaper.run(word);
        if (fast === null) continue; // left to fontkit: checked below
        const full = font.layoutRun(word); // pdfkit's own call into fontkit (not hooked here)
        expect(fast.glyphs.map((g) => g.id), word).toEqual(full.glyphs.map((g) => g.id));
        fast.positions.forEach((p, i) => {
          expect(p.xAdvance, `${word} [${i}]`).toBeCloseTo(full.positions[i].xAdvance, 9);
          expect(p.advanceWidth, `${word} [${i}]`).toBeCloseTo(full.positions[i].advanceWidth, 9);
          if (p.xAdvance !== p.advanceWidth) kerned++;
        });
        expect(fast.advanceWidth, word).toBeCloseTo(full.advanceWidth, 9);
      }
      // The corpus does exercise kerning (AV, To, Yv …).
      expect(kerned).toBeGreaterThan(100);
    });
  }

  it('leaves to fontkit what is not one plain glyph per character: ligatures, marks, other scripts', () => {
    const font = pdfkitFont('Roboto-Regular.ttf');
    const shaper = new PairShaper(font.font as never);
    expect(font.font.layout('office').glyphs).toHaveLength(4); // the ffi ligature
    for (const text of ['office', 'ﬁ', 'Cafe\u0301', 'नमस्ते', '₹100', 'soft\u00adhyphen', 'tab\there']) expect(shaper.run(text), text).toBeNull();
    expect(shaper.run('Café')).not.toBeNull();
  });
});

describe('PrintedRows', () => {
  it('packs rows into one string and back; separators inside cells become spaces', () => {
    const rows = new PrintedRows();
    expect(unpackRows(rows.pack())).toEqual([]);
    rows.add(['a', '', 'c']);
    rows.add(['', '', '']);
    rows.add(['x\u001ey', 'p\u001fq', 'line\nbreak']);
    expect(rows.count).toBe(3);
    expect(unpackRows(rows.pack())).toEqual([
      ['a', '', 'c'],
      ['', '', ''],
      ['x y', 'p q', 'line\nbreak'],
    ]);
  });
});

// ---------------------------------------------------------------------------------------------

interface Word {
  page: number;
  xMin: number;
  xMax: number;
  yMin: number;
  text: string;
}

/** Words of a PDF with their boxes (pdftotext -bbox), and its page count. */
async function wordsOf(bytes: Buffer): Promise<{ pages: number; words: Word[]; text: string[] }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sd-pdf-unit-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    await writeFile(file, bytes);
    const [info, bbox, text] = await Promise.all([
      run('pdfinfo', [file]),
      run('pdftotext', ['-bbox', file, '-'], { maxBuffer: 64 * 1024 * 1024 }),
      run('pdftotext', ['-layout', file, '-'], { maxBuffer: 64 * 1024 * 1024 }),
    ]);
    const pages = Number(/^Pages:\s+(\d+)/m.exec(info.stdout)![1]);
    const words: Word[] = [];
    bbox.stdout.split('<page ').slice(1).forEach((page, i) => {
      for (const m of page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g)) {
        words.push({ page: i + 1, xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), text: m[4].replace(/&amp;/g, '&') });
      }
    });
    return { pages, words, text: text.stdout.split('\f').slice(0, pages) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const BRANDING: PdfInput['branding'] = {
  name: 'Unit Dairy',
  address: '',
  contactNumber: '',
  gstin: '',
  fssai: '',
  footerName: '',
  primaryColor: '#1F4E79',
  logo: null,
};

/** A portrait PDF of three equal columns (left, left, right). */
function input(rows: string[][], extra: Partial<PdfInput> = {}): PdfInput {
  const printed = new PrintedRows();
  for (const row of rows) printed.add(row);
  return {
    title: 'Unit',
    filterLines: [],
    summaryLine: `${rows.length} rows`,
    orientation: 'portrait',
    columns: [
      { header: 'Code', width: 1, alignment: 'left' },
      { header: 'Name', width: 1, alignment: 'left' },
      { header: 'Amount', width: 1, alignment: 'right' },
    ],
    rows: printed.pack(),
    totals: null,
    branding: BRANDING,
    ...extra,
  };
}

/** A4 portrait, 28 pt margins, three equal columns. */
const COLUMN = (595.28 - 56) / 3;

describe('layOutPdf', () => {
  it('wraps a cell too long for its column inside it: every word printed, nothing past the column, a word wider than the column broken', async () => {
    const long = 'Shree Ganesh Dairy and General Provision Stores Near the Old Bus Stand Market Road';
    const word = 'Supercalifragilisticexpialidociouslylongunbrokenstorename';
    const pdf = await wordsOf(await layOutPdf(input([['C-1', long, '1,00,000.00'], ['C-2', word, '5.00'], ['C-3', 'short', '7.50']])));
    expect(pdf.pages).toBe(1);
    const table = pdf.words.filter((w) => w.yMin > 100 && w.yMin < 800); // under the heading, above the footer
    const inName = table.filter((w) => w.xMin >= 28 + COLUMN && w.xMax <= 28 + 2 * COLUMN);
    expect(inName.map((w) => w.text).join(' ')).toContain(long);
    expect(inName.map((w) => w.text).join('')).toContain(word);
    // Lines of the long cell stay in the Name column (its padding of 3 pt included).
    for (const w of table.filter((w) => long.includes(w.text) || word.includes(w.text))) {
      expect(w.xMin, w.text).toBeGreaterThanOrEqual(28 + COLUMN + 3 - 0.01);
      expect(w.xMax, w.text).toBeLessThanOrEqual(28 + 2 * COLUMN - 3 + 0.01);
    }
    // Amounts are right-aligned against the column's right padding.
    const amount = pdf.words.find((w) => w.text === '1,00,000.00')!;
    expect(amount.xMax).toBeCloseTo(595.28 - 28 - 3, 0);
    // The rows follow each other: C-2 below every line of C-1, C-3 below C-2.
    const y = (text: string) => pdf.words.find((w) => w.text === text)!.yMin;
    const lastOfLong = Math.max(...pdf.words.filter((w) => w.text === 'Road').map((w) => w.yMin));
    expect(y('C-2')).toBeGreaterThan(lastOfLong);
    expect(y('C-3')).toBeGreaterThan(y('C-2'));
  });

  it('never splits a row across pages; the header row and "Page X of Y" are on every page', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => [`R-${String(i + 1).padStart(3, '0')}`, `first line words for wrapping ${i + 1} end${i + 1}`, String(i)]);
    const pdf = await wordsOf(await layOutPdf(input(rows, { totals: ['Total', '', '7,140'] })));
    expect(pdf.pages).toBeGreaterThan(2);
    for (let i = 1; i <= 120; i++) {
      const code = pdf.words.filter((w) => w.text === `R-${String(i).padStart(3, '0')}`);
      const end = pdf.words.filter((w) => w.text === `end${i}`);
      expect(code, `row ${i}`).toHaveLength(1);
      expect(end, `row ${i}`).toHaveLength(1);
      expect(end[0].page, `row ${i}`).toBe(code[0].page);
    }
    pdf.text.forEach((page, i) => {
      expect(page, `page ${i + 1}`).toMatch(/^\s*Code\s+Name\s+Amount\s*$/m);
      expect(page, `page ${i + 1}`).toMatch(new RegExp(`Unit Dairy\\s+Page ${i + 1} of ${pdf.pages}\\s*$`, 'm'));
    });
    expect(pdf.text[pdf.pages - 1]).toMatch(/^\s*Total\s+7,140\s*$/m);
    expect(pdf.text.slice(0, -1).join('\n')).not.toMatch(/Total/);
  });

  it('prints Latin-1 through the pair shaper and the rest through fontkit (ligatures, combining marks)', async () => {
    const pdf = await wordsOf(await layOutPdf(input([['Crème brûlée', 'Cafe\u0301 ﬁne', 'office']])));
    const text = pdf.text[0].normalize('NFKC');
    expect(text).toMatch(/Crème brûlée\s+Café fine\s+office/);
  });

  it('leaves out a logo that is not a readable image, as it does one that cannot be fetched', async () => {
    const broken = `data:image/png;base64,${Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really a png')]).toString('base64')}`;
    const pdf = await wordsOf(await layOutPdf(input([['C-1', 'x', '1']], { branding: { ...BRANDING, logo: broken } })));
    expect(pdf.text[0].split('\n').map((l) => l.trim()).filter(Boolean)[0]).toBe('Unit Dairy');
  });

  it('an empty table keeps its header row and footer', async () => {
    const pdf = await wordsOf(await layOutPdf(input([])));
    expect(pdf.pages).toBe(1);
    expect(pdf.text[0]).toMatch(/^\s*Code\s+Name\s+Amount\s*$/m);
    expect(pdf.text[0]).toMatch(/Unit Dairy\s+Page 1 of 1/);
  });
});

// ---------------------------------------------------------------------------------------------

/** The nice values of this process's threads (Linux). */
/** This process's threads, each with its niceness. */
function threadNiceness(): Map<string, number> {
  return new Map(
    readdirSync('/proc/self/task').map((tid) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    }),
  );
}

const ROWS = Array.from({ length: 400 }, (_, i) => [`C-${i}`, `Name ${i}`, String(i)]);

describe('PdfRenderer', () => {
  it('keeps its threads for the next PDFs, at most `concurrency` of them, and writes what layOutPdf writes', async () => {
    const renderer = new PdfRenderer(2);
    try {
      const [a, b, c] = await Promise.all([renderer.render(input(ROWS)), renderer.render(input(ROWS)), renderer.render(input(ROWS))]);
      expect(renderer.threads).toBe(2);
      for (const bytes of [a, b, c]) expect((await wordsOf(bytes)).words.filter((w) => /^C-\d+$/.test(w.text))).toHaveLength(400);
      await renderer.render(input(ROWS));
      await renderer.render(input(ROWS));
      expect(renderer.threads).toBe(2);
    } finally {
      await renderer.close();
    }
    expect(renderer.threads).toBe(0);
  });

  it('prepares a thread ahead of a PDF (while rows are read) and then writes the PDF on it', async () => {
    const renderer = new PdfRenderer(2);
    try {
      renderer.prepare();
      renderer.prepare(); // one idle thread is enough
      expect(renderer.threads).toBe(1);
      expect((await wordsOf(await renderer.render(input(ROWS)))).words.filter((w) => /^C-\d+$/.test(w.text))).toHaveLength(400);
      expect(renderer.threads).toBe(1);
    } finally {
      await renderer.close();
    }
  });

  it('a PDF that cannot be laid out fails alone: the same thread writes the next one', async () => {
    const renderer = new PdfRenderer(1);
    try {
      await expect(renderer.render({ ...input(ROWS), rows: 42 as unknown as string })).rejects.toThrow(/^PDF layout failed: /);
      expect(renderer.threads).toBe(1);
      expect((await wordsOf(await renderer.render(input(ROWS)))).pages).toBeGreaterThan(1);
      expect(renderer.threads).toBe(1);
    } finally {
      await renderer.close();
    }
  });

  it('a thread stopped while writing fails its PDF, and a new thread writes the next one', async () => {
    const renderer = new PdfRenderer(1);
    try {
      const writing = renderer.render(input(ROWS));
      await new Promise((resolve) => setTimeout(resolve, 50));
      await renderer.close();
      await expect(writing).rejects.toThrow(/PDF worker exited with code/);
      expect(renderer.threads).toBe(0);
      expect((await renderer.render(input(ROWS))).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(renderer.threads).toBe(1);
    } finally {
      await renderer.close();
    }
  });

  it('a thread left idle stops by itself', async () => {
    const renderer = new PdfRenderer(2, 100);
    await renderer.render(input(ROWS));
    expect(renderer.threads).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(renderer.threads).toBe(0);
    // And a new one starts when needed.
    expect((await renderer.render(input(ROWS))).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await renderer.close();
  });

  it.runIf(process.platform === 'linux')('runs its threads below the priority of the request thread', async () => {
    const renderer = new PdfRenderer(1);
    try {
      // Threads of earlier tests' renderers may still be exiting: only the threads this one started count.
      const before = threadNiceness();
      await renderer.render(input(ROWS));
      const after = threadNiceness();
      const started = [...after].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
      expect(started.filter((nice) => nice === 19)).toHaveLength(1);
      expect(after.get(String(process.pid))).toBe(0); // the test's own thread keeps its priority
    } finally {
      await renderer.close();
    }
  });
});
