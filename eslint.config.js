// Type-aware lint for the whole tree. Formatting is Prettier's job (eslint-config-prettier turns off
// the rules that would fight it); the rules here are about bugs a webhook server cannot afford.
// Which folder of src/ may import which, and no import cycles, is dependency-cruiser's job
// (.dependency-cruiser.cjs, one layer table; `npm run lint` runs both).
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
          allowDefaultProject: [
            '*.js',
            '.dependency-cruiser.cjs',
            'bin/*.js',
            'scripts/*.mjs',
            'bench/reliability/*/*.mjs',
            'test/helpers/browser/*.mjs',
          ],
          // The plain JavaScript files outside tsconfig: a handful, so the default project stays cheap.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 17,
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
  // Functions this helper hands to page.evaluate() run in the browser.
  { files: ['test/helpers/browser/*.mjs'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  prettier,
);
