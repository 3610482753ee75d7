import path from 'node:path';
import pdfmake from 'pdfmake';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import type { PdfInput } from './pdf-input';

const FONTS_DIR = path.join(path.dirname(require.resolve('pdfmake/package.json')), 'fonts', 'Roboto');
const MARGIN = 28;
/** Left and right padding of table cells (pdfmake's default is 4). */
const CELL_PADDING = 3;
/** A4 in points. */
const PAGE = { portrait: 595.28 - 2 * MARGIN, landscape: 841.89 - 2 * MARGIN };

pdfmake.setFonts({
  Roboto: {
    normal: path.join(FONTS_DIR, 'Roboto-Regular.ttf'),
    bold: path.join(FONTS_DIR, 'Roboto-Medium.ttf'),
    italics: path.join(FONTS_DIR, 'Roboto-Italic.ttf'),
    bolditalics: path.join(FONTS_DIR, 'Roboto-MediumItalic.ttf'),
  },
});
// Nothing is fetched or read while laying out: the logo arrives as data, fonts from pdfmake's folder.
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((file) => path.resolve(file).startsWith(FONTS_DIR + path.sep));

function letterhead(input: PdfInput): Content {
  const b = input.branding;
  const registrations = [b.gstin && `GSTIN: ${b.gstin}`, b.fssai && `FSSAI: ${b.fssai}`, b.contactNumber && `Phone: ${b.contactNumber}`].filter(Boolean).join('   ');
  const details: Content = {
    stack: [
      { text: b.name, style: 'organization', color: b.primaryColor },
      ...(b.address ? [{ text: b.address }] : []),
      ...(registrations ? [{ text: registrations }] : []),
    ],
    alignment: b.logo ? 'right' : 'left',
  };
  return b.logo ? { columns: [{ image: b.logo, fit: [140, 50], width: 150 }, details] } : details;
}

function table(input: PdfInput): Content {
  const available = PAGE[input.orientation];
  const sum = input.columns.reduce((s, c) => s + c.width, 0);
  const header: TableCell[] = input.columns.map((c) => ({ text: c.header, style: 'tableHeader', fillColor: input.branding.primaryColor, alignment: c.alignment }));
  const body: TableCell[][] = [header, ...input.rows.map((row) => row.map((text, i) => ({ text, alignment: input.columns[i].alignment })))];
  if (input.totals) body.push(input.totals.map((text, i) => ({ text, bold: true, alignment: input.columns[i].alignment })));
  return {
    table: {
      headerRows: 1,
      dontBreakRows: true,
      // pdfmake's widths exclude the cells' padding: the columns share what is left of the page.
      widths: input.columns.map((c) => (available * c.width) / sum - 2 * CELL_PADDING),
      body,
    },
    layout: {
      hLineWidth: (i, node) => (i === 0 || i === 1 || i === node.table.body.length || (input.totals && i === node.table.body.length - 1) ? 0.8 : 0.2),
      vLineWidth: () => 0,
      paddingLeft: () => CELL_PADDING,
      paddingRight: () => CELL_PADDING,
      hLineColor: () => '#9E9E9E',
      fillColor: (row) => (row > 0 && row % 2 === 0 ? '#F5F5F5' : null),
    },
  };
}

/** The document: letterhead, title, the filters applied, the table (header repeated on every page), page numbers. */
export function documentOf(input: PdfInput): TDocumentDefinitions {
  const b = input.branding;
  return {
    pageSize: 'A4',
    pageOrientation: input.orientation,
    pageMargins: [MARGIN, MARGIN, MARGIN, 36],
    info: { title: `${input.title} – ${b.name}`, author: b.name, creator: 'Sales distribution service' },
    defaultStyle: { font: 'Roboto', fontSize: 7.5 },
    styles: {
      organization: { fontSize: 13, bold: true },
      title: { fontSize: 16, bold: true, margin: [0, 10, 0, 2] },
      meta: { fontSize: 8.5, color: '#424242' },
      tableHeader: { bold: true, color: '#FFFFFF' },
    },
    content: [
      letterhead(input),
      { text: input.title, style: 'title', color: b.primaryColor },
      ...input.filterLines.map((line) => ({ text: line, style: 'meta' })),
      { text: input.summaryLine, style: 'meta', margin: [0, 0, 0, 8] },
      table(input),
    ],
    footer: (currentPage, pageCount) => ({
      margin: [MARGIN, 10, MARGIN, 0],
      columns: [
        { text: b.footerName || b.name, fontSize: 7.5, color: '#616161' },
        { text: `Page ${currentPage} of ${pageCount}`, alignment: 'right', fontSize: 7.5, color: '#616161' },
      ],
    }),
  };
}

/** Lays out and writes the PDF (CPU-bound: run it off the request thread, see PdfRenderer). */
export function layOutPdf(input: PdfInput): Promise<Buffer> {
  return pdfmake.createPdf(documentOf(input)).getBuffer();
}
