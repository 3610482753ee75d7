import type { EntityManager } from '@mikro-orm/postgresql';
import { findRows, type Row } from '../../db/entity-rows';
import { Approval, ApprovalStep } from './approval.entity';

/** An approval as REST and GraphQL show it: its row and its steps' rows, by tier. */
export interface ApprovalRead {
  approval: Row<Approval>;
  steps: Array<Row<ApprovalStep>>;
}

/** The reads of approval rows: their steps in one tenant-filtered statement. */
export async function readApprovals(em: EntityManager, approvals: ReadonlyArray<Row<Approval>>): Promise<ApprovalRead[]> {
  if (approvals.length === 0) return [];
  const steps = await findRows(em, ApprovalStep, { approval: { $in: approvals.map((a) => a.id) } }, { orderBy: { tier: 'asc' } } as never);
  const byApproval = new Map<number, Array<Row<ApprovalStep>>>();
  for (const step of steps) {
    const list = byApproval.get(step.approval) ?? [];
    list.push(step);
    byApproval.set(step.approval, list);
  }
  return approvals.map((approval) => ({ approval, steps: (byApproval.get(approval.id) ?? []).sort((a, b) => a.tier - b.tier) }));
}
