import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { PAGE_NAMES, type PageName, visitEveryPage } from './every-page';

// Journey: someone who cannot use a mouse, or who uses a screen reader, audits the demo log.
// Every page passes axe-core's WCAG 2.1 A/AA rules without a serious or critical finding, in the
// light and the dark colour scheme; the first Tab stop skips the navigation; every Tab stop shows
// a focus ring at least 2 px thick that stands out from the page; and a log can be opened from
// files or a folder with the keyboard alone.
// A walk of eleven pages, each checked by axe: minutes on a busy machine.
test.describe.configure({ timeout: 420_000 });

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const CORPUS_GOOD = join(process.cwd(), 'lib/testdata/corpus/good');

/** axe's serious and critical findings on the page as it is now, one readable line per element. */
async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map((n) => `${where}: ${v.id} (${v.impact}) at ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ').trim() ?? v.help}`),
    );
}

interface FocusStop {
  what: string;
  thick: boolean;
  contrast: number;
}

/**
 * Presses Tab up to `stops` times from the top of the page and describes each focused element's
 * focus indicator: an outline or a box-shadow ring at least 2 px thick (SVG marks: a 2 px stroke),
 * and the contrast of the ring's colour against the page's background.
 */
async function tabStops(page: Page, stops: number): Promise<FocusStop[]> {
  // From the top, as after a click on the page's empty corner: the next Tab is the first stop.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.mouse.click(1, 1);
  const out: FocusStop[] = [];
  for (let i = 0; i < stops; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const s = getComputedStyle(el);
      const rgb = (c: string) => (c.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map(Number);
      const lum = (c: number[]) => {
        const [r, g, b] = c.map((v) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      const ratio = (a: number[], b: number[]) => {
        const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
        return (x! + 0.05) / (y! + 0.05);
      };
      const page = rgb(getComputedStyle(document.body).backgroundColor);
      const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
      const shadow = /(\d+(\.\d+)?)px\s*$/.exec(s.boxShadow.replace(/rgba?\([^)]*\)/g, '').trim());
      const ring = s.boxShadow !== 'none' && shadow !== null && parseFloat(shadow[1]!) >= 2;
      const stroke = el instanceof SVGElement && parseFloat(s.strokeWidth) >= 2;
      const color = outline ? s.outlineColor : ring ? (s.boxShadow.match(/rgba?\([^)]*\)/)?.[0] ?? s.color) : s.stroke;
      const name = `<${el.localName}${el.id ? `#${el.id}` : ''}${el.getAttribute('data-testid') ? ` data-testid=${el.getAttribute('data-testid')}` : ''}> "${(el.textContent ?? '').trim().slice(0, 40)}"`;
      return { what: name, thick: outline || ring || stroke, contrast: Math.round(ratio(rgb(color), page) * 100) / 100 };
    });
    if (!stop) break;
    out.push(stop);
  }
  return out;
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} scheme`, () => {
    test.use({ colorScheme });

    test('every page: no serious or critical axe finding, and every Tab stop shows a clear focus ring', async ({ page }, testInfo) => {
      const found: string[] = [];
      const unseen: string[] = [];
      const visited: PageName[] = [];
      await visitEveryPage(page, async (name) => {
        visited.push(name);
        found.push(...(await seriousViolations(page, name)));
        for (const stop of await tabStops(page, 25)) {
          if (!stop.thick || stop.contrast < 3)
            unseen.push(`${name}: ${stop.what}: ${stop.thick ? '' : 'no ring 2 px thick; '}ring contrast ${stop.contrast}:1`);
        }
        await page.screenshot({ path: testInfo.outputPath(`a11y-${name}-${colorScheme}.png`), fullPage: true });
      });
      expect(visited).toEqual(PAGE_NAMES);
      expect(found, `axe (${WCAG_TAGS.join(', ')}), serious and critical:\n${found.join('\n')}`).toEqual([]);
      expect(unseen, `focus indicators:\n${unseen.join('\n')}`).toEqual([]);
    });
  });
}

test('the first Tab stop is "Skip to content", which moves focus past the navigation into the page', async ({ page }, testInfo) => {
  await page.goto('/compliance');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  // Off screen until focused, then on screen.
  const box = (await skip.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  await page.screenshot({ path: testInfo.outputPath('skip-link.png') });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#content$/);
  await expect(page.locator('main#content')).toBeFocused();
  // The next Tab stop is inside the page's content, not the navigation.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main#content')))).toBe(true);
});

test('files and a folder open with the keyboard alone: Tab to the buttons, Enter and Space open the file chooser', async ({ page }) => {
  await page.goto('/');
  const summary = page.getByTestId('verify-summary');
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });

  /** Tabs forward until the button named `name` has focus; fails if it is not a Tab stop. */
  async function tabTo(name: string): Promise<void> {
    await page.locator('body').focus();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement;
        return el?.localName === 'button' ? el.textContent?.trim() : null;
      });
      if (focused === name) return;
    }
    throw new Error(`"${name}" is not reachable with the Tab key`);
  }

  await tabTo('choose files');
  const [files] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
  expect(files.isMultiple()).toBe(true);
  await files.setFiles(join(CORPUS_GOOD, 'receipts.ndjson'));
  await expect(summary).toHaveAttribute('data-source', '1 file');
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });

  await tabTo('choose a folder');
  const [folder] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
  await folder.setFiles(CORPUS_GOOD);
  await expect(summary).toHaveAttribute('data-source', `${readdirSync(CORPUS_GOOD).length} files`);
  await expect(summary).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
});
