import { ApolloArmor } from '@escape.tech/graphql-armor';
import { ASTVisitor, DocumentNode, FragmentDefinitionNode, GraphQLError, Kind, OperationDefinitionNode, SelectionSetNode, ValidationContext, ValidationRule, parse } from 'graphql';
import { ONCE_PER_REQUEST_TAG } from '../core/graphql/once-per-request';

/** Limits every operation sent to the gateway must stay within; the REST operations stay well inside. */
export const OPERATION_LIMITS = {
  maxDepth: 10,
  maxAliases: 15,
  maxCost: 1000,
  maxTokens: 2000,
  maxDirectives: 50,
  maxRootFields: 20,
};


/**
 * GraphQL Armor's depth, alias, cost and directive limits, graphql-js's own token limit (Armor's token
 * plugin throws from a plugin hook, which Apollo answers with 500, even for a plain syntax error), and
 * two rules of ours: at most `maxRootFields` root fields per operation, and each mutation tagged
 * once-per-request at most once in a document, whatever its aliases.
 */
export function operationProtection(supergraphSdl: string) {
  const armor = new ApolloArmor({
    maxDepth: { n: OPERATION_LIMITS.maxDepth, exposeLimits: true },
    maxAliases: { n: OPERATION_LIMITS.maxAliases, exposeLimits: true },
    costLimit: { maxCost: OPERATION_LIMITS.maxCost, exposeLimits: true },
    maxTokens: { enabled: false },
    maxDirectives: { n: OPERATION_LIMITS.maxDirectives, exposeLimits: true },
  }).protect();
  return {
    parseOptions: { maxTokens: OPERATION_LIMITS.maxTokens },
    plugins: armor.plugins,
    /** What Armor's plugin does to error messages: field suggestions do not reveal the schema. */
    hideSuggestions: (message: string) => message.replace(/Did you mean ".+"/g, '[Suggestion hidden]'),
    validationRules: [...armor.validationRules, maxRootFieldsRule(OPERATION_LIMITS.maxRootFields), oncePerRequestRule(oncePerRequestFields(supergraphSdl))],
  };
}

export type OperationProtection = ReturnType<typeof operationProtection>;

/** The Mutation fields carrying `@tag(name: "once-per-request")` in the supergraph. */
export function oncePerRequestFields(supergraphSdl: string): Set<string> {
  const names = new Set<string>();
  for (const definition of parse(supergraphSdl).definitions) {
    if ((definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) || definition.name.value !== 'Mutation') continue;
    for (const field of definition.fields ?? []) {
      const tagged = field.directives?.some(
        (directive) =>
          directive.name.value === 'tag' &&
          directive.arguments?.some((argument) => argument.value.kind === Kind.STRING && argument.value.value === ONCE_PER_REQUEST_TAG),
      );
      if (tagged) names.add(field.name.value);
    }
  }
  return names;
}

/** The root field names an operation selects, through fragments at the root. */
function rootFieldNames(selectionSet: SelectionSetNode, fragments: Record<string, FragmentDefinitionNode>, seen = new Set<string>()): string[] {
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection.name.value];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootFieldNames(selection.selectionSet, fragments, seen);
    const name = selection.name.value;
    if (seen.has(name) || !fragments[name]) return [];
    seen.add(name);
    return rootFieldNames(fragments[name].selectionSet, fragments, seen);
  });
}

function fragmentsOf(document: DocumentNode): Record<string, FragmentDefinitionNode> {
  return Object.fromEntries(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
}

/** Whether the operation selects any of the root fields, through fragments too. */
export function namesAnyRootField(operation: OperationDefinitionNode, document: DocumentNode, fields: Set<string>): boolean {
  return rootFieldNames(operation.selectionSet, fragmentsOf(document)).some((name) => fields.has(name));
}

export function maxRootFieldsRule(max: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation: OperationDefinitionNode) {
      const count = rootFieldNames(operation.selectionSet, fragmentsOf(context.getDocument())).filter((name) => !name.startsWith('__')).length;
      if (count > max) context.reportError(new GraphQLError(`Too many root fields: ${count}, at most ${max} per operation.`, { nodes: [operation] }));
    },
  });
}

export function oncePerRequestRule(fields: Set<string>): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const counts = new Map<string, number>();
    return {
      OperationDefinition(operation: OperationDefinitionNode) {
        if (operation.operation !== 'mutation') return;
        for (const name of rootFieldNames(operation.selectionSet, fragmentsOf(context.getDocument()))) {
          if (fields.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
        }
      },
      Document: {
        leave() {
          for (const [name, count] of counts) {
            if (count > 1) context.reportError(new GraphQLError(`${name} may run at most once per request, found ${count}.`));
          }
        },
      },
    };
  };
}
