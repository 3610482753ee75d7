import type { ApolloServerPlugin } from '@apollo/server';
import { isAbstractType, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import type { RowColumns } from '../db/entity-rows';
import type { GraphqlContext } from './context';
import { rowColumns, type FieldSelection } from './loaders';
import { perDocument } from './per-document';

/**
 * Every field a document selects of each object type, by the name of the class the type is
 * declared on (an entity's, which records are read for), wherever the type appears in it: through
 * aliases, fragments and inline fragments, in every operation. Fields selected on an interface or a
 * union count for each of its object types. Rows are read with the columns of this selection (see
 * RowColumns): a type's rows are shared by every place that shows it (the loaders batch across the
 * whole operation), so each must hold the fields of all of them.
 *
 * Field names are property names: plain fields are never renamed (graphql-plain-fields test).
 */
export function selectedFields(schema: GraphQLSchema, document: DocumentNode): FieldSelection {
  const classOf = classNames();
  const selected = new Map<string, Set<string>>();
  const add = (typeName: string, field: string) => {
    const className = classOf.get(typeName) ?? typeName;
    let fields = selected.get(className);
    if (!fields) selected.set(className, (fields = new Set()));
    fields.add(field);
  };
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const parent = typeInfo.getParentType();
        if (!parent) return;
        const types = isAbstractType(parent) ? schema.getPossibleTypes(parent) : [parent];
        for (const type of types) add(type.name, node.name.value);
      },
    }),
  );
  return selected;
}

/** The class each TypeGraphQL object type is declared on, by type name (`Workspace` is `Organization`). */
function classNames(): Map<string, string> {
  return new Map(getMetadataStorage().objectTypes.map((type) => [type.name, type.target.name]));
}

/**
 * Puts the columns of the fields the operation's document selects in the context
 * (`operation.columns`) before any resolver runs, worked out once per parsed document.
 */
export function fieldSelectionPlugin(schema: GraphQLSchema): ApolloServerPlugin<GraphqlContext> {
  const selections = perDocument<null, { fields: FieldSelection; columns: RowColumns }>(1);
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, document }) {
          const { fields, columns } = selections(document, null, () => {
            const selected = selectedFields(schema, document);
            return { fields: selected, columns: rowColumns(selected) };
          });
          Object.assign(contextValue.operation, { fields, columns });
        },
      };
    },
  };
}
