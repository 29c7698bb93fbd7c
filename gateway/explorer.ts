import { Express } from 'express';
import { join } from 'node:path';
import { assetsHandler, BrowserPage, packageFile, pageHandler, wantsPage } from '../core/browser-page';
import { exampleQuery } from '../seed/example-query';

/** Where the explorer's files are served. */
const ASSETS_PATH = '/explorer';

/** What the header editor starts with: where the admin's token goes. */
const DEFAULT_HEADERS = JSON.stringify({ Authorization: 'Bearer <accessToken>' }, null, 2);

/**
 * GraphiQL for the admin UI's developers, from the npm packages (no CDN: it works without internet
 * access) under a policy of this origin only, opened on the demo program's example query.
 */
const explorerPage = (endpoint: string): BrowserPage => ({
  title: 'GraphQL explorer · Loyalty platform',
  assetsPath: ASSETS_PATH,
  assets: {
    'graphiql.css': packageFile('graphiql', 'graphiql.min.css'),
    'explorer.css': join(__dirname, 'explorer', 'explorer.css'),
    'react.js': packageFile('react', 'umd/react.production.min.js'),
    'react-dom.js': packageFile('react-dom', 'umd/react-dom.production.min.js'),
    'graphiql.js': packageFile('graphiql', 'graphiql.min.js'),
    'graphql-ws.js': packageFile('graphql-ws', 'umd/graphql-ws.min.js'),
    'explorer.js': join(__dirname, 'explorer', 'explorer.js'),
  },
  config: { endpoint, defaultQuery: exampleQuery, defaultHeaders: DEFAULT_HEADERS },
  policy: "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
});

/**
 * The explorer at `endpoint` for a browser's GET (an HTML page asked for, no operation in the query
 * string); every other request goes on to the GraphQL server.
 */
export function serveExplorer(app: Express, endpoint: string): void {
  const page = explorerPage(endpoint);
  const html = pageHandler(page);
  app.get(endpoint, (req, res, next) => (wantsPage(req) && req.query.query === undefined ? html(req, res, next) : next()));
  app.get(`${ASSETS_PATH}/:name`, assetsHandler(page));
}
