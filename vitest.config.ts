import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/{unit,roundtrip,property,cli,host}/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'threads',
    globalSetup: ['test/helpers/cli-bundle-setup.ts'],
  },
});
