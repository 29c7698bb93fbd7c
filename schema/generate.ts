import 'reflect-metadata';
import { composeServices } from '@apollo/composition';
import { parse, specifiedRules, validate } from 'graphql';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { operationProtection } from '../gateway/operation-limits';
import { OPERATIONS } from '../rest-adapter/operations';
import { buildDomainSchema } from '../core/module';
import { MODULES } from '../subgraphs/registry';
import { dockerCompose } from './docker-compose';

/**
 * `npm run schema`: prints each registered domain's SDL, composes the supergraph into schema/, and
 * writes docker-compose.yml from the registry.
 * `npm run schema:check` (CI): fails when the committed files differ from what the code produces,
 * when the registry is inconsistent (names, ports), when composition fails, or when a REST operation
 * does not validate against the supergraph or breaks the gateway's operation limits.
 */
async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const problems: string[] = [];
  const files: Record<string, string> = {};
  const services = [];
  problems.push(...registryProblems());
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
    for (const [name, document] of Object.entries(OPERATIONS)) {
      try {
        for (const error of validate(apiSchema, parse(document, protection.parseOptions), rules)) problems.push(`operation ${name}: ${error.message}`);
      } catch (error) {
        problems.push(`operation ${name}: ${(error as Error).message}`);
      }
    }
  }
  const outputs: Record<string, string> = Object.fromEntries(Object.entries(files).map(([file, content]) => [join(__dirname, file), content]));
  outputs[join(__dirname, '..', 'docker-compose.yml')] = dockerCompose(MODULES);
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
