// Lint: Prettier's formatting (checked first, see .prettierrc.json), typescript-eslint's recommended rules
// everywhere, React's hook rules in the renderer, and no console in the engine and its layers (they log
// through the injected logger). The dependency direction between folders is checked by dependency-cruiser
// (.dependency-cruiser.cjs); all three run in `npm run lint`.
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
      // Prettier (`prettier --check`, also in `npm run lint`) wraps code at 140 columns but not comments, and it
      // cannot break a long string: comments are held to the same limit here, strings are left whole.
      'max-len': ['error', { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true }],
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
    ignores: ['main/cli.ts', 'main/cli-remote.ts', 'main/cli-scrypt-ts.ts', 'main/headless.ts'],
    rules: { 'no-console': 'error' },
  },
);
