// axe-core's automated WCAG 2.x A and AA checks on the page as it is now: labels, names, roles,
// contrast, landmarks. A failure lists each rule with the elements that break it.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export async function expectNoAccessibilityViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const problems = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(problems, `accessibility violations on ${page.url()}`).toEqual([]);
}
