// One lint config for every workspace. Besides the usual checks it enforces the import
// directions of ARCHITECTURE.md: forms/ imports nothing of ours, admin-ui/ only forms/ (its core
// and validators entries), workflow code no Node built-ins, nobody reaches into tests/, and nobody imports another
// workspace's build output (`@crisis/*/dist/*`: use the package entry points, e.g.
// `@crisis/forms/rules`). Undeclared imports are caught by scripts/check-imports.mjs.
import tseslint from 'typescript-eslint';

const ours = (except) =>
  ['@crisis/api', '@crisis/workflows', '@crisis/admin-ui', '@crisis/seed', '@crisis/tests', '@crisis/forms']
    .filter((p) => !except.includes(p))
    .flatMap((p) => [p, `${p}/*`]);

/** Another workspace's build output is not an interface. */
const noDist = ['@crisis/*/dist', '@crisis/*/dist/*'];

const nodeBuiltins = ['fs', 'path', 'os', 'crypto', 'child_process', 'net', 'http', 'https', 'worker_threads', 'process']
  .flatMap((m) => [m, `node:${m}`]);

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.data/**', 'admin-ui/dist/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'no-restricted-imports': ['error', { patterns: noDist }],
    },
  },
  {
    files: ['forms/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...ours([]), '../../*', ...noDist] }] },
  },
  {
    // The browser's first load stays small: @crisis/forms/core (no ajv, no ipaddr.js), and
    // @crisis/forms/validators only in the pages that validate input (they load with the page).
    files: ['admin-ui/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@crisis/forms', message: 'The admin UI imports @crisis/forms/core, and @crisis/forms/validators where it validates.' }],
          patterns: [...ours(['@crisis/forms']), ...noDist],
        },
      ],
    },
  },
  {
    files: ['api/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...ours(['@crisis/forms', '@crisis/workflows']), ...noDist] }] },
  },
  {
    // Workflow code is bundled for the deterministic sandbox: the rule tables only (the package
    // root brings ajv and CASL), no Node built-ins.
    files: ['workflows/src/workflows/**/*.ts', 'workflows/src/definitions.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...nodeBuiltins, { name: '@crisis/forms', message: 'Workflow code imports @crisis/forms/rules (no ajv, no CASL).' }],
          patterns: [...ours(['@crisis/forms']), ...noDist],
        },
      ],
    },
  },
);
