import { Type } from '@sinclair/typebox';
import type { GrievanceRead } from '../../src/domains/grievances/grievance-read';
import { breachesOf } from '../../src/domains/grievances/grievance-rules';
import { GRIEVANCE_CATEGORIES, GRIEVANCE_CATEGORY_LABELS, GRIEVANCE_RESOLUTION_ACTIONS, GRIEVANCE_STATUS_LABELS, GRIEVANCE_STATUSES } from '../../src/domains/grievances/grievance.entity';
import { Nullable, Timestamp } from '../schemas';

export const GRIEVANCE_CATEGORY_TEXT = GRIEVANCE_CATEGORIES.map((c) => `${c} ${GRIEVANCE_CATEGORY_LABELS[c]}`).join(', ');
export const GRIEVANCE_STATUS_TEXT = GRIEVANCE_STATUSES.map((s) => `${s} ${GRIEVANCE_STATUS_LABELS[s]}`).join(', ');

export const GrievancePhotoBody = Type.Object({
  id: Type.Integer(),
  file_name: Type.String(),
  content_type: Type.String({ description: 'image/jpeg or image/png (by content)' }),
  byte_size: Type.Integer(),
  uploaded_by_user_id: Nullable(Type.Integer()),
  created_at: Timestamp,
});

/** A grievance with its SLA flags and photos. */
export const GrievanceBody = Type.Object({
  id: Type.Integer(),
  customer_id: Type.Integer(),
  raised_by_user_id: Nullable(Type.Integer({ description: 'null: an API key' })),
  raised_via: Type.String({ description: 'customer, staff or api_key' }),
  category: Type.Integer({ description: GRIEVANCE_CATEGORY_TEXT }),
  category_name: Type.String(),
  order_id: Nullable(Type.Integer()),
  description: Type.String(),
  status: Type.Integer({ description: GRIEVANCE_STATUS_TEXT }),
  status_name: Type.String(),
  assignee_user_id: Nullable(Type.Integer()),
  ack_due_at: Timestamp,
  resolve_due_at: Timestamp,
  acknowledged_at: Nullable(Timestamp),
  resolved_at: Nullable(Timestamp),
  closed_at: Nullable(Timestamp),
  reopened_at: Nullable(Timestamp),
  reopen_count: Type.Integer(),
  ack_breached: Type.Boolean({ description: 'Acknowledged after ack_due_at, or still not and it has passed' }),
  resolve_breached: Type.Boolean({ description: 'Resolved after resolve_due_at, or still not and it has passed' }),
  breached: Type.Boolean(),
  ack_warned_at: Nullable(Timestamp),
  resolve_warned_at: Nullable(Timestamp),
  resolution: Type.String(),
  resolution_action: Type.String({ description: GRIEVANCE_RESOLUTION_ACTIONS.join(', ') }),
  credit_note_entry_id: Nullable(Type.Integer({ description: 'The ledger entry (credit note) the resolution posted' })),
  foc_request_id: Nullable(Type.Integer({ description: 'The FOC replacement request the resolution submitted' })),
  photos: Type.Array(GrievancePhotoBody),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const RAISED_VIA = ['', 'customer', 'staff', 'api_key'];

/** A grievance as REST shows it. */
export function presentGrievance({ grievance: g, photos, now }: GrievanceRead) {
  return {
    id: g.id,
    customer_id: g.customer,
    raised_by_user_id: g.raisedBy,
    raised_via: RAISED_VIA[g.raisedVia],
    category: g.category,
    category_name: GRIEVANCE_CATEGORY_LABELS[g.category],
    order_id: g.order,
    description: g.description,
    status: g.status,
    status_name: GRIEVANCE_STATUS_LABELS[g.status],
    assignee_user_id: g.assignee,
    ack_due_at: g.ackDueAt,
    resolve_due_at: g.resolveDueAt,
    acknowledged_at: g.acknowledgedAt,
    resolved_at: g.resolvedAt,
    closed_at: g.closedAt,
    reopened_at: g.reopenedAt,
    reopen_count: g.reopenCount,
    ...(({ ackBreached, resolveBreached, breached }) => ({ ack_breached: ackBreached, resolve_breached: resolveBreached, breached }))(breachesOf(g, now)),
    ack_warned_at: g.ackWarnedAt,
    resolve_warned_at: g.resolveWarnedAt,
    resolution: g.resolution,
    resolution_action: GRIEVANCE_RESOLUTION_ACTIONS[g.resolutionAction],
    credit_note_entry_id: g.creditNote,
    foc_request_id: g.focRequest,
    photos: photos.map((p) => ({ id: p.id, file_name: p.fileName, content_type: p.contentType, byte_size: p.byteSize, uploaded_by_user_id: p.uploadedBy, created_at: p.createdAt })),
    created_at: g.createdAt,
    updated_at: g.updatedAt,
  };
}
