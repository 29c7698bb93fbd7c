import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { MODULES, platformSurface } from '../../subgraphs/registry';

const ROOT = resolve(__dirname, '..', '..');
const DOMAINS = MODULES.map((module) => module.contract.name);

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder)).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sourcesUnder(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The files a source imports, as paths from the repository root (`subgraphs/point/contract`). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s+'(\.[^']+)'/g)].map((match) => relative(ROOT, resolve(ROOT, dirname(file), match[1])));
}

const domainOf = (path: string): string | undefined => /^subgraphs\/([^/]+)\//.exec(path)?.[1];

describe('the boundaries of the domains and the engines', () => {
  it('leaves the REST adapter and the kernel without a domain: they import none (the registry hands them the surfaces)', () => {
    const crossing = [...sourcesUnder('rest-adapter'), ...sourcesUnder('core')].flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith('subgraphs/') && target !== 'subgraphs/registry')
        .map((target) => `${file} imports ${target}`),
    );
    expect(crossing).toEqual([]);
  });

  it('declares every route in a domain surface: no route literal lives outside subgraphs/<domain>/surface/', () => {
    const routeLiteral = /\bmethod:\s*'(get|post|put|patch|delete)',\s*(\/\/[^\n]*\n\s*)*path:/;
    const outside = ['rest-adapter', 'core', 'gateway', 'bin', ...DOMAINS.map((domain) => `subgraphs/${domain}`)]
      .flatMap(sourcesUnder)
      .filter((file) => !/^subgraphs\/[^/]+\/surface\//.test(file))
      .filter((file) => routeLiteral.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(outside).toEqual([]);
    expect(platformSurface().routes.length).toBeGreaterThan(200);
  });

  it('keeps each surface to its own domain: a surface imports no other domain', () => {
    const crossing = DOMAINS.flatMap((domain) => {
      const folder = `subgraphs/${domain}/surface`;
      const files = existsSync(join(ROOT, folder)) ? sourcesUnder(folder) : [];
      return files.flatMap((file) => importsOf(file).filter((target) => domainOf(target) && domainOf(target) !== domain).map((target) => `${file} imports ${target}`));
    });
    expect(crossing).toEqual([]);
  });

  it('makes the webhook domain an engine of public events: it imports no other domain', () => {
    const crossing = sourcesUnder('subgraphs/webhook').flatMap((file) =>
      importsOf(file)
        .filter((target) => domainOf(target) && domainOf(target) !== 'webhook')
        .map((target) => `${file} imports ${target}`),
    );
    expect(crossing).toEqual([]);
  });

  it('tells a failure by its entity or reason, never by matching its message', () => {
    const matching = /\.(test|exec)\(\s*[\w.]*\bmessage\s*\)|\bmessage\s*\.\s*match\(/;
    const files = [...sourcesUnder('rest-adapter/v1'), ...DOMAINS.flatMap((domain) => sourcesUnder(`subgraphs/${domain}`).filter((file) => file.includes('/surface/')))];
    expect(files.filter((file) => matching.test(readFileSync(join(ROOT, file), 'utf8')))).toEqual([]);
  });
});
