import { ForbiddenError } from '../../errors/app-error';
import { WorkspaceStatus } from './organization.entity';

/** 403 for every request of a suspended workspace, whatever the credential (and no new sessions). */
export function assertWorkspaceOpen(status: WorkspaceStatus): void {
  if (status === WorkspaceStatus.SUSPENDED) {
    throw new ForbiddenError('This workspace is suspended; contact support to reactivate it');
  }
}
