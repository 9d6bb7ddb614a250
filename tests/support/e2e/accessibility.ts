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

/** Radio buttons not beside their label's first line of text (as when one is stretched above its text). */
export function radiosOffTheirLabelLine(page: Page): Promise<string[]> {
  return page.locator('label:has(> input[type=radio])').evaluateAll((labels) =>
    labels.flatMap((label) => {
      const radio = label.querySelector('input')!.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(label);
      const text = [...range.getClientRects()].find((r) => r.left >= radio.right && r.width > 4);
      const beside = text !== undefined && Math.abs((text.top + text.bottom) / 2 - (radio.top + radio.bottom) / 2) < 8;
      return beside ? [] : [label.textContent!.trim()];
    }),
  );
}
