import { Field, Float, InputType, Int } from 'type-graphql';
import { VisitOutcome } from './visit.entity';

@InputType({ description: 'Where and when the device was.' })
export class VisitPointInput {
  @Field(() => Date, { description: 'The device’s time (ISO 8601); at most 5 minutes ahead of the server.' })
  deviceTime!: Date;

  @Field(() => Float, { description: '-90 to 90' })
  latitude!: number;

  @Field(() => Float, { description: '-180 to 180' })
  longitude!: number;

  @Field(() => Float, { nullable: true, description: 'Metres, 0 to 100000' })
  accuracyM?: number | null;

  @Field(() => Boolean, { nullable: true })
  isMock?: boolean | null;
}

@InputType({ description: 'A check-in on an outlet; the same clientRef again answers the first visit.' })
export class CheckInVisitInput extends VisitPointInput {
  @Field({ description: 'A UUID the device generated for the visit.' })
  clientRef!: string;

  @Field(() => Int, { description: 'An active outlet of the workspace.' })
  outletId!: number;
}

@InputType({ description: 'A check-out with its outcome: orderId for ORDER, noSaleReasonId for NO_SALE.' })
export class CheckOutVisitInput extends VisitPointInput {
  @Field(() => VisitOutcome)
  outcome!: VisitOutcome;

  @Field(() => Int, { nullable: true, description: 'Outcome ORDER: a non-cancelled order you created.' })
  orderId?: number | null;

  @Field(() => Int, { nullable: true, description: 'Outcome NO_SALE: an active no-sale reason.' })
  noSaleReasonId?: number | null;

  @Field(() => String, { nullable: true, description: 'At most 500 characters.' })
  remarks?: string | null;
}
