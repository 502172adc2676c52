// Type-aware lint for the whole tree. Formatting is Prettier's job (eslint-config-prettier turns off
// the rules that would fight it); the rules here are about bugs a webhook server cannot afford.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/', 'action/dist/', 'coverage/', 'bench/results/', '**/fixtures/', 'test/corpus/', 'test/reference/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', 'bin/*.js', 'scripts/*.mjs', 'bench/reliability/*/*.mjs', 'test/helpers/browser/*.mjs'],
          // The plain JavaScript files outside tsconfig: a handful, so the default project stays cheap.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 16,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unnecessary-condition': ['error', { allowConstantLoopConditions: true }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Off: the ports (TelemetrySource, TreeReader, source openers) promise a Promise, and their
      // replay adapters and fakes answer at once; `async` keeps that promise, turning a throw into
      // a rejection the callers' error paths expect. Floating and misused promises stay errors.
      '@typescript-eslint/require-await': 'off',
    },
  },
  // report/ writes what analysis/ found, through its public index only (src/analysis/index.ts).
  {
    files: ['src/report/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../analysis/*', '!../analysis/index.js'], message: 'import analysis/ through ../analysis/index.js' }] },
      ],
    },
  },
  // detect/kit/ is what several formats share: it leans on nothing of detect/ but the parser contract.
  {
    files: ['src/detect/kit/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./(?!parser\\.js$|\\.\\./domain/)', message: 'kit/ imports only detect/parser.ts and domain/' }] },
      ],
    },
  },
  {
    files: ['src/detect/kit/*/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./\\.\\./(?!parser\\.js$|\\.\\./domain/)', message: 'kit/ imports only detect/parser.ts and domain/' },
          ],
        },
      ],
    },
  },
  // The registry takes each format through its face, index.ts (registry.test.ts checks the faces).
  {
    files: ['src/detect/registry.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\./[^/]+/(?!index\\.js$)', message: 'import a format through its index.ts' }] },
      ],
    },
  },
  // analysis/ is pure: it reads domain/ (measurements and GPU prices among it) and itself, never
  // how they were taken.
  {
    files: ['src/analysis/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*', '!../domain'],
              message: 'analysis/ imports only domain/ and itself: take what it needs as a measurement declared in domain/',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/analysis/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../*', '!../../domain'],
              message: 'analysis/ imports only domain/ and itself: take what it needs as a measurement declared in domain/',
            },
          ],
        },
      ],
    },
  },
  // Functions this helper hands to page.evaluate() run in the browser.
  { files: ['test/helpers/browser/*.mjs'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  prettier,
);
