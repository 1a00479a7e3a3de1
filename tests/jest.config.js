// Integration suites against the real PostgreSQL, Temporal and API that `npm test` starts
// (scripts/test.mjs passes API_URL, DATABASE_URL, TEMPORAL_ADDRESS). Run in band.
/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/integration/**/*.test.ts'],
  testTimeout: 30000,
  setupFilesAfterEnv: ['<rootDir>/support/retry-once.ts'],
  transform: require('../jest.transform'),
  // @rjsf/utils (the questionnaire parity suite) requires @x0k/json-schema-merge, which ships ESM only.
  transformIgnorePatterns: ['/node_modules/(?!@x0k/)'],
  passWithNoTests: true,
};
