/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j)s$': ['@swc/jest', {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    }],
  },
  // jose and file-type (with its dependencies) are published as ES modules only: let swc turn them into
  // CommonJS for jest. Node itself loads them with require() (Node 20.19+).
  transformIgnorePatterns: ['/node_modules/(?!(jose|file-type|strtok3|token-types|uint8array-extras|@tokenizer/inflate|@borewit/text-codec|oauth4webapi)/)'],
  // file-type's exports offer its Node entry only to `import` and `module-sync`, conditions jest does not use.
  moduleNameMapper: { '^file-type$': '<rootDir>/node_modules/file-type/index.js' },
  setupFiles: ['reflect-metadata'],
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  maxWorkers: 2,
  // Each file leaves about 60 MB in its worker (its module registry is not collected: every file loads
  // the whole platform), so a worker reached 2.5 GB by its seventeenth file and then spent its time in
  // full GCs: a request taking 50 ms alone took seconds late in the run. A worker past 1 GB after a
  // file is replaced by a fresh one.
  workerIdleMemoryLimit: '1GB',
  testTimeout: 30000,
};
