// Redoc on the adapter's own files (rest-adapter/api-reference.ts), rendering the v1 OpenAPI document.
(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('page-config').textContent);
  Redoc.init(config.specUrl, { expandResponses: '200,201', jsonSampleExpandLevel: 3, pathInMiddlePanel: true }, document.getElementById('page-root'));
})();
