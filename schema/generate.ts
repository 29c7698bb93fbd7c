import 'reflect-metadata';
import { composeServices } from '@apollo/composition';
import { parse, specifiedRules, validate } from 'graphql';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { operationProtection } from '../gateway/operation-limits';
import { OPERATIONS } from '../rest-adapter/operations';
import { SUBGRAPH_BUILDERS } from './subgraphs';

/**
 * `npm run schema`: prints each subgraph's SDL and composes the supergraph into schema/.
 * `npm run schema:check` (CI): fails when the committed files differ from what the code produces,
 * when composition fails, or when a REST operation does not validate against the supergraph or
 * breaks the gateway's operation limits.
 */
async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const problems: string[] = [];
  const files: Record<string, string> = {};
  const services = [];
  for (const [name, build] of Object.entries(SUBGRAPH_BUILDERS)) {
    const { sdl } = await build();
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
  for (const [file, content] of Object.entries(files)) {
    const path = join(__dirname, file);
    if (!check) writeFileSync(path, content);
    else if (readOrEmpty(path) !== content) problems.push(`schema/${file} is out of date: run npm run schema and commit it`);
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log(check ? 'schema check passed' : `wrote ${Object.keys(files).map((file) => `schema/${file}`).join(', ')}`);
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
