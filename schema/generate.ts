import 'reflect-metadata';
import { composeServices } from '@apollo/composition';
import { parse, specifiedRules, validate } from 'graphql';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { operationProtection } from '../gateway/operation-limits';
import { ENGINE_OPERATIONS } from '../rest-adapter/engine-operations';
import { isV1Route, operationNameOf } from '../core/rest/route';
import { v1OpenApi } from '../rest-adapter/v1/openapi';
import { openApiProblems } from './openapi-check';
import { operationAccess } from '../core/auth/access';
import { buildDomainSchema } from '../core/module';
import { MODULES, platformSurface } from '../subgraphs/registry';
import { dockerCompose } from './docker-compose';

/**
 * `npm run schema`: prints each registered domain's SDL, composes the supergraph into schema/, and
 * writes docker-compose.yml from the registry.
 * `npm run schema:check` (CI): fails when the committed files differ from what the code produces,
 * when the registry is inconsistent (names, ports), when composition fails, or when a REST operation
 * (a route's, a stream's, one of the adapter's engine, or one a domain runs on the gateway) does not validate against the supergraph or breaks the
 * gateway's operation limits, or when the v1 OpenAPI description (schema/openapi-v1.json, from the
 * route table) is not valid OpenAPI 3.1.
 */
async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const problems: string[] = [];
  const files: Record<string, string> = {};
  const services = [];
  problems.push(...registryProblems());
  const surface = platformSurface();
  for (const module of MODULES) {
    const name = module.contract.name;
    const { sdl } = await buildDomainSchema(module);
    files[`${name}.graphql`] = `${sdl.trim()}\n`;
    // The URL is a placeholder: the gateway routes each subgraph to the URL its configuration names.
    services.push({ name, url: `http://${name}.subgraph.invalid/graphql`, typeDefs: parse(sdl) });
  }
  const composition = composeServices(services);
  if (composition.errors) {
    for (const error of composition.errors) problems.push(`composition: ${error.message}`);
  } else {
    files['supergraph.graphql'] = `${composition.supergraphSdl.trim()}\n`;
    const apiSchema = composition.schema.toAPISchema().toGraphQLJSSchema();
    const protection = operationProtection(composition.supergraphSdl);
    const rules = [...specifiedRules, ...protection.validationRules];
    const domainOperations = MODULES.flatMap((module) => Object.entries(module.supergraphOperations ?? {}).map(([name, document]) => [`${module.contract.name} ${name}`, document]));
    const routeOperations = surface.routes.map((route) => [`${route.method.toUpperCase()} ${route.path} ${operationNameOf(route.document)}`, route.document]);
    const streamOperations = surface.streams.map((stream) => [`GET ${stream.path} ${operationNameOf(stream.document)}`, stream.document]);
    const engineOperations = Object.entries(ENGINE_OPERATIONS).map(([name, document]) => [`engine ${name}`, document]);
    for (const [name, document] of [...engineOperations, ...routeOperations, ...streamOperations, ...domainOperations]) {
      try {
        for (const error of validate(apiSchema, parse(document, protection.parseOptions), rules)) problems.push(`operation ${name}: ${error.message}`);
      } catch (error) {
        problems.push(`operation ${name}: ${(error as Error).message}`);
      }
    }
  }
  const outputs: Record<string, string> = Object.fromEntries(Object.entries(files).map(([file, content]) => [join(__dirname, file), content]));
  outputs[join(__dirname, '..', 'docker-compose.yml')] = dockerCompose(MODULES);
  if (!composition.errors) {
    const openApi = v1OpenApi(surface, composition.schema.toAPISchema().toGraphQLJSSchema());
    problems.push(...(await openApiProblems(openApi)));
    for (const route of surface.routes.filter(isV1Route)) if (!route.doc) problems.push(`v1 route ${route.method.toUpperCase()} ${route.path} has no doc for the OpenAPI description`);
    outputs[join(__dirname, 'openapi-v1.json')] = `${JSON.stringify(openApi, null, 2)}\n`;
  }
  const access = accessList();
  outputs[join(__dirname, 'access.md')] = access.text;
  problems.push(...access.problems);
  for (const [path, content] of Object.entries(outputs)) {
    const file = relative(join(__dirname, '..'), path);
    if (!check) writeFileSync(path, content);
    else if (readOrEmpty(path) !== content) problems.push(`${file} is out of date: run npm run schema and commit it`);
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log(check ? 'schema check passed' : `wrote ${Object.keys(outputs).map((path) => relative(join(__dirname, '..'), path)).join(', ')}`);
}

/**
 * schema/access.md: every operation of every domain with the access it declares, so that a change of
 * access shows in review; an operation declaring neither `@Authorized` nor `@Public` is a problem.
 */
function accessList(): { text: string; problems: string[] } {
  const problems: string[] = [];
  const lines = ['# Who may call each operation', '', 'Generated by `npm run schema` from the resolvers\' `@Authorized` and `@Public` declarations.', ''];
  for (const module of MODULES) {
    lines.push(`## ${module.contract.name}`, '', '| operation | access |', '|---|---|');
    for (const { operation, access } of operationAccess(module.resolvers)) {
      if (!access) problems.push(`access: ${module.contract.name} ${operation} declares neither @Authorized nor @Public`);
      lines.push(`| ${operation} | ${access ?? '**none declared**'} |`);
    }
    lines.push('');
  }
  return { text: lines.join('\n'), problems };
}

/** Each domain's name is a lower-case identifier (it names a schema and settings), and names and ports are unique. */
function registryProblems(): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const module of MODULES) {
    const name = module.contract.name;
    if (!/^[a-z][a-z0-9_]*$/.test(name)) problems.push(`registry: domain name "${name}" must be a lower-case identifier`);
    for (const key of [`name ${name}`, `port ${module.defaultPort}`]) {
      if (seen.has(key)) problems.push(`registry: ${key} is used by ${seen.get(key)} and ${name}`);
      seen.set(key, name);
    }
  }
  return problems;
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
