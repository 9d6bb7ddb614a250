// Screenshots of a page at desktop (1280 px) and phone (390 px) width, under
// test-results/screenshots/ (gitignored), for people to look at — each page photographed is
// also checked by axe at both widths.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expectNoAccessibilityViolations } from './accessibility';

const DIR = join('test-results', 'screenshots');
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

export async function screenshotPage(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    // Let layout settle after the resize (fonts, wrapped flex rows).
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await expectNoAccessibilityViolations(page);
    await page.screenshot({ path: join(DIR, `${name}-${size.name}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}
