import { ConflictError } from '../../errors/app-error';
import { FOC_STATUS_LABELS, FocStatus } from './foc.entity';

/** Where each status may go next. */
const NEXT: Record<FocStatus, readonly FocStatus[]> = {
  [FocStatus.SUBMITTED]: [FocStatus.APPROVED, FocStatus.REJECTED, FocStatus.CANCELLED],
  [FocStatus.APPROVED]: [FocStatus.FULFILLED, FocStatus.CANCELLED],
  [FocStatus.REJECTED]: [],
  [FocStatus.FULFILLED]: [],
  [FocStatus.CANCELLED]: [],
};

/** `to` when a request in `from` may move there, else 409 naming both. */
export function assertFocTransition(id: number, from: FocStatus, to: FocStatus): FocStatus {
  if (!NEXT[from].includes(to)) throw new ConflictError(`FOC request ${id} is ${FOC_STATUS_LABELS[from]}: it cannot become ${FOC_STATUS_LABELS[to]}`);
  return to;
}
