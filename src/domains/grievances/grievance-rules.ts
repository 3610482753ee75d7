import { ConflictError } from '../../errors/app-error';
import { GRIEVANCE_STATUS_LABELS, GrievanceStatus } from './grievance.entity';

/** How long after resolving or closing a grievance may be reopened. */
export const REOPEN_WINDOW_MS = 7 * 24 * 3_600_000;
/** How long before a deadline the assignee is warned (the cron task). */
export const BREACH_WARNING_MS = 4 * 3_600_000;

/** The transitions, by their REST action names. */
export const GRIEVANCE_ACTIONS = ['acknowledge', 'start', 'hold', 'resolve', 'close', 'reopen'] as const;
export type GrievanceAction = (typeof GRIEVANCE_ACTIONS)[number];

const FROM: Record<GrievanceAction, readonly GrievanceStatus[]> = {
  acknowledge: [GrievanceStatus.OPEN],
  start: [GrievanceStatus.OPEN, GrievanceStatus.ACKNOWLEDGED, GrievanceStatus.ON_HOLD],
  hold: [GrievanceStatus.ACKNOWLEDGED, GrievanceStatus.IN_PROGRESS],
  resolve: [GrievanceStatus.OPEN, GrievanceStatus.ACKNOWLEDGED, GrievanceStatus.IN_PROGRESS, GrievanceStatus.ON_HOLD],
  close: [GrievanceStatus.RESOLVED],
  reopen: [GrievanceStatus.RESOLVED, GrievanceStatus.CLOSED],
};

export const ACTION_TARGET: Record<GrievanceAction, GrievanceStatus> = {
  acknowledge: GrievanceStatus.ACKNOWLEDGED,
  start: GrievanceStatus.IN_PROGRESS,
  hold: GrievanceStatus.ON_HOLD,
  resolve: GrievanceStatus.RESOLVED,
  close: GrievanceStatus.CLOSED,
  reopen: GrievanceStatus.IN_PROGRESS,
};

/** The status `action` leads to from `from`, else 409 naming the current state. */
export function assertGrievanceTransition(id: number, from: GrievanceStatus, action: GrievanceAction): GrievanceStatus {
  if (!FROM[action].includes(from)) throw new ConflictError(`Grievance ${id} is ${GRIEVANCE_STATUS_LABELS[from]}: it cannot be ${action === 'hold' ? 'put on hold' : `${action}${action.endsWith('e') ? 'd' : 'ed'}`}`);
  return ACTION_TARGET[action];
}

/** The SLA flags at `now`: a deadline met late, or not met and already past. */
export function breachesOf(g: { ackDueAt: Date; resolveDueAt: Date; acknowledgedAt: Date | null; resolvedAt: Date | null }, now: Date) {
  const ackBreached = (g.acknowledgedAt ?? now).getTime() > new Date(g.ackDueAt).getTime();
  const resolveBreached = (g.resolvedAt ?? now).getTime() > new Date(g.resolveDueAt).getTime();
  return { ackBreached, resolveBreached, breached: ackBreached || resolveBreached };
}

/** JPEG or PNG by the file's first bytes (its name and declared type are not trusted); null otherwise. */
export function imageTypeOf(data: Buffer): 'image/jpeg' | 'image/png' | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (data.length >= 8 && png.every((b, i) => data[i] === b)) return 'image/png';
  return null;
}
