import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context/request-context';
import { ValidationError } from '../../errors/app-error';
import type { Approval, ApprovalStatus } from './approval.entity';

/**
 * What a kind (FOC now; leaves and scheme claims later) hands the approvals domain: `decided` runs
 * in the transaction of the final decision (the last tier's approval, or any tier's rejection), so
 * the kind's record moves with the approval or not at all.
 */
export interface ApprovalKindHandler {
  decided(tx: EntityManager, ctx: RequestContext, approval: Approval, outcome: ApprovalStatus.APPROVED | ApprovalStatus.REJECTED): Promise<void>;
}

/** The kinds that plug into approvals, by name; a domain registers its kind when its services are built. */
export class ApprovalKinds {
  private readonly handlers = new Map<string, ApprovalKindHandler>();

  register(kind: string, handler: ApprovalKindHandler): void {
    if (!/^[a-z_]{1,32}$/.test(kind)) throw new Error(`approval kind ${kind} must be 1-32 of a-z and _`);
    if (this.handlers.has(kind)) throw new Error(`approval kind ${kind} is registered twice`);
    this.handlers.set(kind, handler);
  }

  /** The registered kinds' names. */
  names(): string[] {
    return [...this.handlers.keys()];
  }

  /** 400 naming `field` when the kind is not registered. */
  check(field: string, kind: string): string {
    if (!this.handlers.has(kind)) throw new ValidationError(field, `must be one of: ${this.names().join(', ')}`);
    return kind;
  }

  handler(kind: string): ApprovalKindHandler {
    const handler = this.handlers.get(kind);
    if (!handler) throw new Error(`approval kind ${kind} is not registered`);
    return handler;
  }
}
