// One lint config for every workspace. Besides the usual checks it enforces the import
// directions of ARCHITECTURE.md: forms/ imports nothing of ours, admin-ui/ only forms/,
// workflow code no Node built-ins, and nobody reaches into tests/.
import tseslint from 'typescript-eslint';

const ours = (except) =>
  ['@crisis/api', '@crisis/workflows', '@crisis/admin-ui', '@crisis/seed', '@crisis/tests', '@crisis/forms']
    .filter((p) => !except.includes(p))
    .flatMap((p) => [p, `${p}/*`]);

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
    },
  },
  {
    files: ['forms/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ours([]).concat(['../../*']) }] },
  },
  {
    files: ['admin-ui/src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: ours(['@crisis/forms']) }] },
  },
  {
    files: ['api/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ours(['@crisis/forms', '@crisis/workflows']) }] },
  },
  {
    files: ['workflows/src/workflows/**/*.ts', 'workflows/src/definitions.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: nodeBuiltins, patterns: ours(['@crisis/forms']) }] },
  },
);
