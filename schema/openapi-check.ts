import { Validator } from '@seriousme/openapi-schema-validator';
import { readFileSync } from 'node:fs';

/** The v1 OpenAPI description must be valid OpenAPI 3.1, and each of its `$ref`s must name a component. */
export async function openApiProblems(document: Record<string, unknown>): Promise<string[]> {
  const result = await new Validator().validate(document);
  const problems = result.valid ? [] : [`openapi-v1.json is not valid OpenAPI 3.1: ${JSON.stringify(result.errors, null, 1).slice(0, 2000)}`];
  const text = JSON.stringify(document);
  for (const [, section, name] of text.matchAll(/"\$ref":"#\/components\/(\w+)\/(\w+)"/g)) {
    const components = (document.components as Record<string, Record<string, unknown>>)[section];
    if (!components?.[name]) problems.push(`openapi-v1.json: $ref to a missing component ${section}/${name}`);
  }
  return problems;
}

/** `node -r @swc-node/register schema/openapi-check.ts <file.json>`: prints the problems of a description as JSON (tests run it so). */
if (require.main === module) {
  openApiProblems(JSON.parse(readFileSync(process.argv[2], 'utf8'))).then((problems) => console.log(JSON.stringify(problems)));
}
