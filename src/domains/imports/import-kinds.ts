import { NotFoundError } from '../../errors/app-error';
import type { ImportKind } from './import-kind';
import { productVariantsImport } from './product-variants.import';
import { rateListImport } from './rate-list.import';
import { schemesImport } from './schemes.import';

/** Every kind of import; adding one is a line here (its file declares it with defineImportKind). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const IMPORT_KINDS: ReadonlyArray<ImportKind<any>> = [
  productVariantsImport,
  rateListImport,
  schemesImport,
];

/** The kind named `kind`, or a 404 naming it. */
export function importKindOf(kind: string): ImportKind<unknown> {
  const found = IMPORT_KINDS.find((k) => k.kind === kind);
  if (!found) throw new NotFoundError(`Import kind ${JSON.stringify(kind).slice(0, 60)} (kinds: ${IMPORT_KINDS.map((k) => k.kind).join(', ')})`);
  return found;
}
