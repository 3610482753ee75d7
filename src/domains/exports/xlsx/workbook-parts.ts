import { xmlText } from './sheet-xml';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
/** The first number format id a workbook may define itself. */
const FIRST_CUSTOM_FORMAT = 164;

/** Cell formats (number format, bold or not), numbered as the style sheet lists them. */
export class StyleSheet {
  private readonly formats: string[] = [];
  /** cellXfs after the default one: [numFmt or '', bold]. */
  private readonly xfs: [string, boolean][] = [];

  /** The index of a cell format, added on first use. */
  styleOf(numFmt: string | undefined, bold: boolean): number {
    if (!numFmt && !bold) return 0;
    const at = this.xfs.findIndex(([f, b]) => f === (numFmt ?? '') && b === bold);
    if (at >= 0) return at + 1;
    if (numFmt && !this.formats.includes(numFmt)) this.formats.push(numFmt);
    this.xfs.push([numFmt ?? '', bold]);
    return this.xfs.length;
  }

  /** xl/styles.xml */
  xml(): string {
    const numFmts = this.formats.map((f, i) => `<numFmt numFmtId="${FIRST_CUSTOM_FORMAT + i}" formatCode="${xmlText(f)}"/>`).join('');
    const font = (bold: boolean) => `<font>${bold ? '<b/>' : ''}<sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font>`;
    const xf = ([f, bold]: [string, boolean]) => {
      const numFmtId = f ? FIRST_CUSTOM_FORMAT + this.formats.indexOf(f) : 0;
      return `<xf numFmtId="${numFmtId}" fontId="${bold ? 1 : 0}" fillId="0" borderId="0" xfId="0"${f ? ' applyNumberFormat="1"' : ''}${bold ? ' applyFont="1"' : ''}/>`;
    };
    return (
      `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
      (numFmts ? `<numFmts count="${this.formats.length}">${numFmts}</numFmts>` : '') +
      `<fonts count="2">${font(false)}${font(true)}</fonts>` +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${this.xfs.length + 1}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>${this.xfs.map(xf).join('')}</cellXfs>` +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
      '</styleSheet>'
    );
  }
}

/** What the package says about itself (docProps/core.xml). */
export interface PackageFacts {
  title: string;
  creator: string;
  created: Date;
}

/** Every part of the workbook but its sheets and styles, by path. */
export function packageParts(sheetNames: readonly string[], facts: PackageFacts): Record<string, string> {
  const sheetType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml';
  const when = facts.created.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    '[Content_Types].xml':
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      sheetNames.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="${sheetType}"/>`).join('') +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
      '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>' +
      '</Types>',
    '_rels/.rels':
      `${XML_HEAD}<Relationships xmlns="${REL_NS}">` +
      `<Relationship Id="rId1" Type="${OFFICE_REL}/officeDocument" Target="xl/workbook.xml"/>` +
      '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>' +
      `<Relationship Id="rId3" Type="${OFFICE_REL}/extended-properties" Target="docProps/app.xml"/>` +
      '</Relationships>',
    'docProps/core.xml':
      `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
      `<dc:title>${xmlText(facts.title)}</dc:title><dc:creator>${xmlText(facts.creator)}</dc:creator><cp:lastModifiedBy>${xmlText(facts.creator)}</cp:lastModifiedBy>` +
      `<dcterms:created xsi:type="dcterms:W3CDTF">${when}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${when}</dcterms:modified>` +
      '</cp:coreProperties>',
    'docProps/app.xml':
      `${XML_HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Microsoft Excel</Application></Properties>`,
    'xl/workbook.xml':
      `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${OFFICE_REL}"><bookViews><workbookView/></bookViews><sheets>` +
      sheetNames.map((name, i) => `<sheet name="${xmlText(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
      '</sheets></workbook>',
    'xl/_rels/workbook.xml.rels':
      `${XML_HEAD}<Relationships xmlns="${REL_NS}">` +
      sheetNames.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${OFFICE_REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('') +
      `<Relationship Id="rId${sheetNames.length + 1}" Type="${OFFICE_REL}/styles" Target="styles.xml"/>` +
      '</Relationships>',
  };
}
