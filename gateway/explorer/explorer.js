// GraphiQL on the gateway's own files (gateway/explorer.ts): queries and mutations over HTTP with the
// headers of the header editor, subscriptions over graphql-ws with those headers as its connection
// parameters (the gateway reads the Bearer token from `authorization` there).
(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('page-config').textContent);
  var endpoint = new URL(config.endpoint, window.location.href).href;
  var overHttp = GraphiQL.createFetcher({ url: endpoint });
  var sockets = new Map();

  function socketFor(headers) {
    var params = {};
    Object.keys(headers || {}).forEach(function (name) {
      params[name.toLowerCase()] = headers[name];
    });
    var key = JSON.stringify(params);
    if (!sockets.has(key)) sockets.set(key, graphqlWs.createClient({ url: endpoint.replace(/^http/, 'ws'), connectionParams: params, lazy: true }));
    return sockets.get(key);
  }

  function isSubscription(params, options) {
    var document = options && options.documentAST;
    return Boolean(document) && document.definitions.some(function (definition) {
      return definition.kind === 'OperationDefinition' && definition.operation === 'subscription' && (!params.operationName || (definition.name && definition.name.value === params.operationName));
    });
  }

  function fetcher(params, options) {
    return isSubscription(params, options) ? socketFor(options.headers).iterate(params) : overHttp(params, options);
  }

  ReactDOM.createRoot(document.getElementById('page-root')).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: config.defaultQuery,
      defaultHeaders: config.defaultHeaders,
      shouldPersistHeaders: false,
      defaultEditorToolsVisibility: 'headers',
    }),
  );
})();
