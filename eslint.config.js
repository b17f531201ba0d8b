// The import rules enforce the one-way arrows of docs/architecture.md:
// machines/ -> openapi/ only; src/ and server/ never import each other.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';
import { noImportCycle } from './scripts/eslint/no-import-cycle.js';
import { noLiteralText } from './scripts/eslint/no-literal-text.js';

// expect(<query>).toBeTruthy() / .toBeDefined(), the query being screen.getBy…, within(x).getAllBy…,
// getByRole… or an awaited findBy…: forbidden in tests below.
const TRUTHY_EXPECT =
  "CallExpression[callee.property.name=/^(toBeTruthy|toBeDefined)$/] > MemberExpression.callee > CallExpression.object[callee.name='expect']";
const QUERY_NAME = '/^(get|find)(All)?By[A-Z]/';

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'test-results', 'playwright-report', 'openapi/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: {
      import: importPlugin,
      'paraph-imports': { rules: { 'no-import-cycle': noImportCycle } },
    },
    settings: {
      // Without the extensions and the parser, eslint-plugin-import reads only .js files: the import rules
      // never followed an import between the project's own TypeScript files.
      'import/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // Libraries are not read: a cycle through one cannot be ours, and reading them took 95 s.
      'import/ignore': ['node_modules'],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Our own cycle check: eslint-plugin-import's no-cycle took 55 of lint's 85 CPU seconds.
      'paraph-imports/no-import-cycle': 'error',
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './machines', from: './src', message: 'machines/ must not import src/' },
            { target: './machines', from: './server', message: 'machines/ must not import server/' },
            { target: './src', from: './server', message: 'src/ must not import server/' },
            { target: './server', from: './src', message: 'server/ must not import src/' },
            {
              target: './openapi',
              from: ['./src', './server', './machines'],
              message: 'openapi/ is the contract: it imports nothing',
            },
            // Test data (the gate's events, fixtures) never ships: only tests and scripts/ read tests/.
            {
              target: ['./src', './server', './machines'],
              from: './tests',
              message: 'production code must not import tests/',
            },
            // Views read actors and send them events; calls and browser effects reach them only through
            // the composition (src/app), so a view cannot act behind its machine's back.
            {
              target: './src/views',
              from: ['./src/api', './src/services'],
              message: 'views must not import src/api or src/services: compose it in src/app',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['machines/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-dom', '@fluentui/*', 'wouter', 'openapi-fetch', 'fastify*', 'kysely'],
              message: 'machines/ imports only xstate, zod and openapi types',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'fetch', 'window', 'document', 'localStorage', 'XMLHttpRequest'],
    },
  },
  {
    // A getBy*/findBy* query throws when nothing matches, so toBeTruthy()/toBeDefined() on what it returns
    // asserts nothing (and a Playwright locator is always truthy): the test must say what matters.
    files: ['tests/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['CallExpression.arguments', 'AwaitExpression.arguments > CallExpression.argument'].map(
          (query) => ({
            selector: `${TRUTHY_EXPECT} > ${query}:matches([callee.name=${QUERY_NAME}], [callee.property.name=${QUERY_NAME}])`,
            message:
              'A getBy*/findBy* query already throws when nothing matches: assert what matters (toBeVisible(), toBeEnabled(), its text or an attribute).',
          }),
        ),
      ],
    },
  },
  {
    // React lives in the app, its view tests and one bench page. The hooks rules read every function of a
    // file they see (the compiler's static-components analysis most: a third of lint's time), so they see
    // only those.
    files: ['src/**/*.{ts,tsx}', 'tests/views/**/*.{ts,tsx}', 'bench/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Views and the app shell show text to people: it must come from the catalogs (all three languages).
    files: ['src/**/*.tsx'],
    plugins: { paraph: { rules: { 'no-literal-text': noLiteralText } } },
    rules: {
      'paraph/no-literal-text': 'error',
      // A focused button that turns disabled drops focus to <body>, where Esc no longer reaches a dialog.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "JSXOpeningElement[name.name=/^(Button|ToggleButton|MenuButton|SplitButton|CompoundButton)$/] > JSXAttribute[name.name='disabled']",
          message:
            'Use disabledFocusable on buttons: a focused button that turns disabled drops focus to <body>.',
        },
      ],
    },
  },
);
