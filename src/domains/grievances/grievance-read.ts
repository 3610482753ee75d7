import type { EntityManager } from '@mikro-orm/postgresql';
import { findRows, rowOf, type Row, type RowColumns } from '../../db/entity-rows';
import { Grievance, GrievancePhoto } from './grievance.entity';

/** A photo's columns without its bytes. */
export type PhotoRow = Omit<Row<GrievancePhoto>, 'data'>;
const PHOTO_COLUMNS: RowColumns = {
  columnsOf: (() => new Set(['id', 'organizationId', 'createdAt', 'updatedAt', 'grievance', 'fileName', 'contentType', 'byteSize', 'storagePath', 'uploadedBy'])) as RowColumns['columnsOf'],
};

/** A grievance as REST and GraphQL show it: its row, its photos' rows (no bytes) and the instant its breach flags are computed at. */
export interface GrievanceRead {
  grievance: Row<Grievance>;
  photos: PhotoRow[];
  now: Date;
}

/** The reads of grievance rows: their photos in one tenant-filtered statement. */
export async function readGrievances(em: EntityManager, grievances: ReadonlyArray<Row<Grievance>>, now = new Date()): Promise<GrievanceRead[]> {
  if (grievances.length === 0) return [];
  const photos = (await findRows(em, GrievancePhoto, { grievance: { $in: grievances.map((g) => g.id) } }, { orderBy: { id: 'asc' }, columns: PHOTO_COLUMNS })) as PhotoRow[];
  const by = new Map<number, PhotoRow[]>();
  for (const photo of photos) {
    const list = by.get(photo.grievance) ?? [];
    list.push(photo);
    by.set(photo.grievance, list);
  }
  return grievances.map((grievance) => ({ grievance, photos: by.get(grievance.id) ?? [], now }));
}

/** The read of one grievance, fresh from the database. */
export async function grievanceReadOf(em: EntityManager, id: number): Promise<GrievanceRead> {
  const grievance = await em.findOneOrFail(Grievance, { id }, { refresh: true });
  const [read] = await readGrievances(em, [rowOf(em, Grievance, grievance)]);
  return read;
}
