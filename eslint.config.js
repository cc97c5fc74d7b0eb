// Lint: eslint's and typescript-eslint's recommended rules (syntax only, no type information: fast
// enough for every `npm test`), with prettier owning the layout.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'completions/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
      },
    },
    rules: {
      // prettier does not break strings, template literals, regexes or comments: this does (a URL cannot be broken)
      'max-len': ['error', { code: 120, tabWidth: 2, ignoreUrls: true }],
      // sanitising terminal text is matching control characters on purpose
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  // the CommonJS launcher (bin/, loaded before any ESM) and CommonJS test helpers
  { files: ['bin/**/*.js', '**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // tests poke at untyped answers on purpose
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
