import 'reflect-metadata';
import { Supergraph, operationFromDocument } from '@apollo/federation-internals';
import { QueryPlanner, prettyFormatQueryPlan } from '@apollo/query-planner';
import { parse } from 'graphql';
import { readSupergraphSdl } from '../core/supergraph';
import { V1_CUSTOMER_ROUTES } from '../subgraphs/auth/surface/v1-customer-routes';

const supergraph = Supergraph.build(readSupergraphSdl());
const planner = new QueryPlanner(supergraph);
const doc = process.argv[2] ?? V1_CUSTOMER_ROUTES.find((r) => r.method === 'get' && r.path.endsWith('/:id'))!.document;
const op = operationFromDocument(supergraph.schema, parse(doc), {});
console.log(prettyFormatQueryPlan(planner.buildQueryPlan(op)));
