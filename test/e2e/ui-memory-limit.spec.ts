/**
 * The editor's decoding memory setting, through the UI and the browser host: a decompression
 * bomb is refused with an error naming the limit and the setting; raising the limit with the
 * keyboard in the status bar (kept across a reload) lets the same file open.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromiumArgs, chromiumPath, expect, test } from './fixtures/index.ts';
import { odolLzoBomb } from '../helpers/bombs.ts';

test.use({ launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] } });

const MiB = 1024 * 1024;

test('a bomb is refused by default and opens after the memory limit is raised with the keyboard', async ({ page, lodsmith }) => {
  // 80 MiB of vertices from a ~330 KB file: past the default (~69 MiB), inside 256 MiB.
  await writeFile(join(lodsmith.root, 'bomb.p3d'), odolLzoBomb(80 * MiB - ((80 * MiB) % 12)));
  await page.goto(lodsmith.page({ open: 'models/bomb.p3d' }));
  const banner = page.getByRole('alert');
  await expect(banner).toContainText(/past the decoding memory budget of 69\.\d MiB/);
  await expect(banner).toContainText(/Memory limit setting/);
  await expect(page.locator('[data-testid=error-path]')).toContainText('lods[0]/vertices');
  await page.screenshot({ path: test.info().outputPath('memory-refused.png') });

  const limit = page.getByLabel('Memory limit');
  await expect(limit).toHaveValue('0');
  await limit.focus();
  // Keyboard only: default -> 256 MiB.
  await page.keyboard.press('ArrowDown');
  await expect(limit).toHaveValue('256');

  // The setting outlives the page: a reload opens the file (still named in the address) again.
  // (A second goto would only change the address fragment, which reloads nothing.)
  await page.reload();
  await expect(page.getByLabel('Memory limit')).toHaveValue('256');
  await expect(page.locator('[data-testid=doc-tab]')).toHaveCount(1);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.locator('[data-testid=status-format]')).toContainText('P3D');
  await page.screenshot({ path: test.info().outputPath('memory-opened.png') });
});
