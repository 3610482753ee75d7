import { Check, Entity, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { TenantEntity } from '../../db/tenant.entity';
import { User } from '../users/user.entity';

/**
 * A user's notification preferences: quiet hours as minutes of the day in the workspace's time
 * zone (start inclusive, end exclusive; start > end spans midnight). Pushes due inside them wait
 * until the end; the inbox row is written at once.
 */
@Entity({ tableName: 'notification_preference' })
@Unique({ properties: ['organizationId', 'user'] })
@Check({ name: 'notification_preference_quiet_check', expression: '(quiet_start_minute is null) = (quiet_end_minute is null) and quiet_start_minute >= 0 and quiet_start_minute <= 1439 and quiet_end_minute >= 0 and quiet_end_minute <= 1439 and quiet_start_minute <> quiet_end_minute' })
export class NotificationPreference extends TenantEntity<'quietStartMinute' | 'quietEndMinute'> {
  @ManyToOne(() => User, { fieldName: 'user_id' })
  user!: User;

  @Property({ type: 'smallint', nullable: true })
  quietStartMinute: number | null = null;

  @Property({ type: 'smallint', nullable: true })
  quietEndMinute: number | null = null;
}
