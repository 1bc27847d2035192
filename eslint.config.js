// Lint: typescript-eslint's recommended rules everywhere, React's hook rules in the renderer, and no
// console in the engine and its layers (they log through the injected logger). The dependency direction
// between folders is checked by dependency-cruiser (.dependency-cruiser.cjs); both run in `npm run lint`.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.native/**', 'test/output/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    // The two classic hook rules; the React Compiler's stricter set assumes a compiler we do not use.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // The engine and everything below it log through the injected logger, never the console.
    files: ['main/**/*.ts'],
    ignores: ['main/cli.ts', 'main/cli-remote.ts', 'main/headless.ts'],
    rules: { 'no-console': 'error' },
  },
);
