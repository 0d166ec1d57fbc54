import { expect, type Page, test } from '@playwright/test';
import { PAGE_NAMES, type PageName, visitEveryPage } from './every-page';

// Journey: an auditor checks the demo log on a phone (390 × 844 CSS px). No page scrolls
// sideways: a table too wide for the screen scrolls in its own box, the rest reflows. The
// navigation fits: every link on screen, none hidden behind a menu, each big enough to tap.
test.describe.configure({ timeout: 300_000 });
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

interface Overflow {
  scrollWidth: number;
  viewport: number;
  /** The outermost elements past the right edge that no scrolling box holds, widest first. */
  offenders: string[];
}

/** How far the page reaches past the screen, and which elements take it there. */
async function overflow(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    // An element inside a box that scrolls or clips sideways does not widen the page.
    const held = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(p).overflowX)) return true;
      }
      return false;
    };
    const past = [...document.querySelectorAll('body *')].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.right > viewport + 1 && !held(el);
    });
    const outermost = past.filter((el) => !past.some((other) => other !== el && other.contains(el)));
    const describe = (el: Element) => {
      const r = el.getBoundingClientRect();
      const id = el.getAttribute('data-testid');
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      return `<${el.localName}${cls}${id ? ` data-testid=${id}` : ''}> ${Math.round(r.width)} px wide, right edge at ${Math.round(r.right)} px`;
    };
    const widest = outermost.sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right);
    return { scrollWidth: document.documentElement.scrollWidth, viewport, offenders: widest.slice(0, 5).map(describe) };
  });
}

test('at 390 px no page scrolls sideways, and the navigation fits with tap-sized links', async ({ page }, testInfo) => {
  const wide: string[] = [];
  const visited: PageName[] = [];
  await visitEveryPage(page, async (name) => {
    visited.push(name);
    // Charts and the DAG size themselves to their box after a frame.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const o = await overflow(page);
    if (o.scrollWidth > o.viewport)
      wide.push(
        `${name}: the page is ${o.scrollWidth} px wide on a ${o.viewport} px screen; widest: ${o.offenders.join('; ') || '(none found outside scrolling boxes)'}`,
      );
    await page.screenshot({ path: testInfo.outputPath(`phone-${name}.png`), fullPage: true });
  });
  expect(visited).toEqual(PAGE_NAMES);
  expect(wide, wide.join('\n')).toEqual([]);

  // The navigation: every link visible on the screen as it loads, inside its width, at least 24 px tall (WCAG 2.5.8).
  await page.goto('/trust');
  const links = page.getByRole('navigation').getByRole('link');
  await expect(links).toHaveCount(9);
  for (const link of await links.all()) {
    await expect(link).toBeInViewport();
    const box = (await link.boundingBox())!;
    expect(box.x, await link.innerText()).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, await link.innerText()).toBeLessThanOrEqual(390);
    expect(box.height, await link.innerText()).toBeGreaterThanOrEqual(24);
  }
  // The page marks where the user is.
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Trust', exact: true })).toHaveAttribute('aria-current', 'page');
  await page.screenshot({ path: testInfo.outputPath('phone-nav.png') });
});
