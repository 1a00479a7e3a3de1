// Unit tests of pure code, beside it: {forms,api,workflows}/src/**/*.spec.ts.
// Run by `npm test` (scripts/test.mjs); alone: npx jest --config jest.unit.config.js
/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/{forms,api,workflows}/src/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: require('./jest.transform'),
  // jose (signed meeting links) ships ESM only: compiled like our own code.
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  passWithNoTests: true,
};
