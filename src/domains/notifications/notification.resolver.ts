import { Arg, Args, ArgsType, Authorized, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { Row } from '../../db/entity-rows';
import { COST, pageCost } from '../../graphql/costs';
import type { GraphqlContext } from '../../graphql/context';
import { PageOf, toPage, type Page } from '../../graphql/page.types';
import { InGroup } from '../../graphql/route-group';
import { SortedPageArgs } from '../../graphql/sort.types';
import { DeviceToken } from './device-token.entity';
import { Notification } from './notification.entity';
import { NOTIFICATION_SORT } from './notification.service';

const NotificationPage = PageOf(Notification, 'Notification');

@ArgsType()
export class NotificationListArgs extends SortedPageArgs(NOTIFICATION_SORT) {
  @Field(() => Boolean, { nullable: true, description: 'true: unread only; false: read only' })
  unread?: boolean | null;
}

@InputType()
export class DeviceTokenInput {
  @Field({ description: 'The push token the device’s provider (FCM) gave the app' })
  token!: string;

  @Field({ description: 'portal, driver or field' })
  app!: string;

  @Field({ description: 'android, ios or web' })
  platform!: string;
}

@ObjectType({ simpleResolvers: true })
export class NotificationPreferences {
  @Field(() => String, { nullable: true, description: 'HH:MM, the workspace’s time zone; null: no quiet hours' })
  quietHoursStart!: string | null;

  @Field(() => String, { nullable: true, description: 'HH:MM (exclusive); before the start: the quiet hours span midnight' })
  quietHoursEnd!: string | null;
}

/** The signed-in user's inbox, device tokens and quiet hours (sessions only: API keys are refused). */
@Authorized()
@Resolver()
export class NotificationResolver {
  @InGroup('portal')
  @Query(() => NotificationPage, { complexity: pageCost(), description: 'The caller’s notifications, latest first.' })
  async notifications(@Args(() => NotificationListArgs) args: NotificationListArgs, @Ctx() { ctx, services }: GraphqlContext): Promise<Page<Row<Notification>>> {
    const { page, limit, sort, unread } = args;
    return toPage(await services.notifications.list(ctx, { unread }, { page, limit, sort }));
  }

  @InGroup('portal')
  @Query(() => Int, { complexity: COST.record, description: 'How many of the caller’s notifications are unread.' })
  async unreadNotificationCount(@Ctx() { ctx, services }: GraphqlContext): Promise<number> {
    return services.notifications.unreadCount(ctx);
  }

  @InGroup('portal')
  @Mutation(() => Notification, { complexity: COST.write, description: 'Marks one of the caller’s notifications read (another user’s is NOT_FOUND).' })
  async markNotificationRead(@Arg('id', () => Int) id: number, @Ctx() { ctx, services }: GraphqlContext): Promise<Row<Notification>> {
    return services.notifications.markRead(ctx, id);
  }

  @InGroup('portal')
  @Mutation(() => Int, { complexity: COST.write, description: 'Marks every unread notification of the caller read; answers how many.' })
  async markAllNotificationsRead(@Ctx() { ctx, services }: GraphqlContext): Promise<number> {
    return services.notifications.markAllRead(ctx);
  }

  @InGroup('portal')
  @Mutation(() => DeviceToken, { complexity: COST.write, description: 'Registers a device token for the caller (idempotent: the same token is the same row, moved to the caller).' })
  async registerDeviceToken(@Arg('input', () => DeviceTokenInput) input: DeviceTokenInput, @Ctx() { ctx, services }: GraphqlContext): Promise<Row<DeviceToken>> {
    return (await services.notifications.registerToken(ctx, input)).token;
  }

  @InGroup('portal')
  @Mutation(() => Boolean, { complexity: COST.write, description: 'Unregisters one of the caller’s device tokens by its value (NOT_FOUND when the caller has none such).' })
  async unregisterDeviceToken(@Arg('token') token: string, @Ctx() { ctx, services }: GraphqlContext): Promise<boolean> {
    await services.notifications.unregisterToken(ctx, token);
    return true;
  }

  @InGroup('portal')
  @Query(() => NotificationPreferences, { complexity: COST.record, description: 'The caller’s quiet hours.' })
  async notificationPreferences(@Ctx() { ctx, services }: GraphqlContext): Promise<NotificationPreferences> {
    return services.notifications.preferences(ctx);
  }

  @InGroup('portal')
  @Mutation(() => NotificationPreferences, { complexity: COST.write, description: 'Sets (both HH:MM) or clears (both null) the caller’s quiet hours; pushes wait until their end.' })
  async setQuietHours(
    @Arg('start', () => String, { nullable: true }) start: string | null,
    @Arg('end', () => String, { nullable: true }) end: string | null,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<NotificationPreferences> {
    return services.notifications.setQuietHours(ctx, start, end);
  }
}
