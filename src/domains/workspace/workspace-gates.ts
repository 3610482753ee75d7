import { ForbiddenError, PaymentRequiredError } from '../../errors/app-error';
import { WorkspaceStatus } from './organization.entity';

/** 403 for every request of a suspended workspace, whatever the credential (and no new sessions). */
export function assertWorkspaceOpen(status: WorkspaceStatus): void {
  if (status === WorkspaceStatus.SUSPENDED) {
    throw new ForbiddenError('This workspace is suspended; contact support to reactivate it');
  }
}

/**
 * What machine access needs on top of an open workspace: a trial past its end answers 402 to
 * API keys, reads included (signed-in users keep working, so they can choose a plan).
 */
export function assertMachineAccessAllowed(status: WorkspaceStatus, trialEndsAt: Date | null, now = new Date()): void {
  assertWorkspaceOpen(status);
  if (status === WorkspaceStatus.TRIAL && trialEndsAt !== null && trialEndsAt <= now) {
    throw new PaymentRequiredError('The workspace trial has ended: API keys work again once the workspace is on a paid plan');
  }
}
