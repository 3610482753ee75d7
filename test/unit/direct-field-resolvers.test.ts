import 'reflect-metadata';
import { graphql, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { Arg, Authorized, buildSchema, Ctx, Field, FieldResolver, getMetadataStorage, Int, ObjectType, Query, Resolver, Root, UseMiddleware } from 'type-graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { callFieldResolversDirectly, directResolvers } from '../../src/graphql/direct-field-resolvers';
import { domainResolvers } from '../../src/domains';
import { graphqlSchema } from '../../src/graphql/schema';

interface TestContext {
  signedIn: boolean;
  seen: string[];
}

@ObjectType('DirectTestBox', { simpleResolvers: true })
class Box {
  @Field(() => Int)
  id!: number;
}

@ObjectType('DirectTestThing', { simpleResolvers: true })
class Thing {
  @Field(() => Int)
  id!: number;

  boxId!: number;
}

/** A parent as plain data: typed by an interface, `@Root()` passes it as it comes. */
interface ThingRow {
  id: number;
  boxId: number;
}

@Resolver(() => Thing)
class ThingResolver {
  private readonly prefix = 'box of ';

  @Query(() => [Thing])
  things(): Thing[] {
    return [{ id: 1, boxId: 10 }, { id: 2, boxId: 20 }];
  }

  @FieldResolver(() => Box)
  box(@Root() thing: ThingRow, @Ctx() context: TestContext): Box {
    context.seen.push(`box ${thing.id}`);
    return { id: thing.boxId };
  }

  @FieldResolver(() => String, { description: 'Reads `this`, as a resolver class may.' })
  label(@Ctx() context: TestContext, @Root() thing: ThingRow): string {
    context.seen.push(`label ${thing.id}`);
    return `${this.prefix}${thing.id}`;
  }

  @FieldResolver(() => Boolean, { description: 'Typed by its class, `@Root()` makes the parent an instance of it.' })
  typed(@Root() thing: Thing): boolean {
    return thing instanceof Thing;
  }

  @Authorized()
  @FieldResolver(() => Box)
  guarded(@Root() thing: ThingRow): Box {
    return { id: thing.boxId };
  }

  @FieldResolver(() => Int)
  plus(@Root() thing: ThingRow, @Arg('by', () => Int) by: number): number {
    return thing.id + by;
  }

  @UseMiddleware(({ context }: { context: TestContext }, next) => {
    context.seen.push('middleware');
    return next();
  })
  @FieldResolver(() => Int)
  watched(@Root() thing: ThingRow): number {
    return thing.id;
  }
}

describe('callFieldResolversDirectly', () => {
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = await buildSchema({
      resolvers: [ThingResolver],
      authChecker: ({ context }: { context: TestContext }) => context.signedIn,
      validate: false,
    });
    callFieldResolversDirectly(schema);
  });
  const fields = () => (schema.getType('DirectTestThing') as GraphQLObjectType).getFields();
  const run = (source: string, signedIn = true) => {
    const contextValue: TestContext = { signedIn, seen: [] };
    return graphql({ schema, source, contextValue }).then((result) => ({ result, seen: contextValue.seen }));
  };

  it('calls field resolvers that take only the parent and the context directly, in their parameters order, with their class instance', async () => {
    expect(directResolvers.has(fields().box.resolve!)).toBe(true);
    expect(directResolvers.has(fields().label.resolve!)).toBe(true);
    const { result, seen } = await run('{ things { id box { id } label } }');
    expect(result).toEqual({
      data: {
        things: [
          { id: 1, box: { id: 10 }, label: 'box of 1' },
          { id: 2, box: { id: 20 }, label: 'box of 2' },
        ],
      },
    });
    expect(seen).toEqual(['box 1', 'label 1', 'box 2', 'label 2']);
  });

  it('leaves to TypeGraphQL the field resolvers with an auth rule, arguments, middlewares or a typed parent, which still apply', async () => {
    for (const name of ['guarded', 'plus', 'watched', 'typed']) expect(directResolvers.has(fields()[name].resolve!), name).toBe(false);
    expect((await run('{ things { guarded { id } } }', false)).result.errors?.[0].message).toMatch(/Access denied/);
    expect((await run('{ things { guarded { id } } }')).result.data).toEqual({ things: [{ guarded: { id: 10 } }, { guarded: { id: 20 } }] });
    expect((await run('{ things { plus(by: 5) } }')).result.data).toEqual({ things: [{ plus: 6 }, { plus: 7 }] });
    const watched = await run('{ things { watched } }');
    expect(watched.result.data).toEqual({ things: [{ watched: 1 }, { watched: 2 }] });
    expect(watched.seen).toEqual(['middleware', 'middleware']);
    expect((await run('{ things { typed } }')).result.data).toEqual({ things: [{ typed: true }, { typed: true }] });
  });
});

describe("the gateway's schema", () => {
  it('guards every query and mutation but the sign-in ones, so that field resolvers need no guard of their own', async () => {
    const schema = await graphqlSchema();
    const storage = getMetadataStorage();
    const ours = (root: { target: Function }) => domainResolvers().includes(root.target);
    const unguarded = [...storage.queries, ...storage.mutations].filter((root) => ours(root) && root.roles === undefined).map((root) => root.schemaName);
    expect(unguarded.every((name) => schema.getQueryType()!.getFields()[name] ?? schema.getMutationType()!.getFields()[name])).toBe(true);
    expect(unguarded.sort()).toEqual([
      'authChallenge',
      'exchangeDesktopCode',
      'login',
      'loginWithPasskey',
      'passkeyLoginOptions',
      'requestMagicLink',
      'requestOtp',
      'setPasswordFromLink',
      'signup',
      'verifyMagicLink',
      'verifyOtp',
    ]);
  });

  it('calls every field resolver directly: none has an auth rule (root fields carry them), arguments, middlewares or a typed parent', async () => {
    const schema = await graphqlSchema();
    const typeNames = new Map(getMetadataStorage().objectTypes.map((type) => [type.target, type.name]));
    const wrapped = getMetadataStorage()
      .fieldResolvers.filter((resolver) => resolver.kind === 'external')
      .map((resolver) => `${typeNames.get(resolver.getObjectType!())}.${resolver.schemaName}`)
      .filter((name) => {
        const [type, field] = name.split('.');
        const found = (schema.getType(type) as GraphQLObjectType | undefined)?.getFields()[field];
        return found !== undefined && !directResolvers.has(found.resolve!);
      });
    expect(wrapped).toEqual([]);
    // The gateway's relation fields are indeed among them.
    const order = schema.getType('Order') as GraphQLObjectType;
    expect(directResolvers.has(order.getFields().items.resolve!)).toBe(true);
  });
});
