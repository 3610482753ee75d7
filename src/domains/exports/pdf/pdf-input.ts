/** The workspace's branding printed on its PDFs. */
export interface Branding {
  /** The workspace's name (or its footer name when set). */
  name: string;
  address: string;
  contactNumber: string;
  gstin: string;
  fssai: string;
  footerName: string;
  /** #RRGGBB. */
  primaryColor: string;
  /** The logo as a data: URL (PNG or JPEG), when it could be fetched. */
  logo: string | null;
}

/** Everything a PDF is laid out from: plain data, so it crosses to the rendering thread. */
export interface PdfInput {
  title: string;
  /** One line per filter applied. */
  filterLines: string[];
  /** When it was made and how many rows it holds. */
  summaryLine: string;
  orientation: 'portrait' | 'landscape';
  columns: { header: string; width: number; alignment: 'left' | 'right' }[];
  /** Cells as printed text. */
  rows: string[][];
  totals: string[] | null;
  branding: Branding;
}
