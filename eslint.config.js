import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import pluginVue from 'eslint-plugin-vue';

const nodeOnly = [
  { group: ['node:*'], message: 'shared/ and renderer/ run in the browser and workers too: no Node built-ins.' },
  { group: ['electron', 'electron/*'], message: 'Only main/ talks to Electron.' },
];
const nodeBuiltins = ['fs', 'path', 'os', 'child_process', 'worker_threads', 'crypto', 'stream', 'util', 'url', 'http', 'net', 'zlib'];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test/fixtures/generated/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Single-file components: the Vue plugin's recommended rules, as errors so lint fails on them,
  // with TypeScript in <script setup>. Three of them only place line breaks (one attribute per
  // line, a break inside every element): the templates keep their dense one-line style, which the
  // rest of the code base shares; every rule about correctness and Vue usage stays on.
  ...pluginVue.configs['flat/recommended-error'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] }, globals: { ...globals.browser } },
    rules: {
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/multiline-html-element-content-newline': 'off',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['shared/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.vue'],
    rules: {
      'no-restricted-imports': ['error', { paths: nodeBuiltins.map((name) => ({ name, message: 'No Node built-ins here.' })), patterns: nodeOnly }],
    },
  },
  {
    files: ['shared/**/*.ts'],
    languageOptions: { globals: { TextDecoder: 'readonly', TextEncoder: 'readonly', console: 'readonly' } },
  },
  {
    files: ['main/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts', 'bin/**/*.mjs', '*.js', '*.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The launcher is CommonJS (see scripts/build-cli.ts): require is how it loads the bundle.
    files: ['bin/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['renderer/**/*.ts'], languageOptions: { globals: { ...globals.browser } } },
);
