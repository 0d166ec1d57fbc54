import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { narrowComplianceToDemoRange } from './every-page';

// Journey: a compliance officer narrows the demo log's report to a time range and saves it as a
// PDF on A4 ("Print / save as PDF" is the browser's print). The PDF is the report and nothing
// else: no navigation or controls; nothing is cut off at the right edge (the charts are drawn
// again at the paper's width); the sections follow one another rather than each taking a page.
// The layout is measured while Chromium prints (print media at the A4 page's width), not in a
// screen imitation of it.

interface PrintLayout {
  /** The width the page is laid out at while printing: A4 less the page margins. */
  width: number;
  /** Elements of the report whose right edge is past that width. */
  past: string[];
  /** Boxes that clip (overflow hidden, clip, auto or scroll) with more inside than they show. */
  clipped: string[];
  /** Charts whose drawing is not as wide as the box it is shown in. */
  charts: string[];
  shown: { nav: boolean; controls: boolean; buttons: number };
}

test('the compliance report for the demo range prints on A4: within the page width, nothing clipped, no page per section', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await page.goto('/compliance');
  await expect(page.getByTestId('compliance')).toHaveAttribute('data-counted', /^[1-9]\d*$/, { timeout: 60_000 });
  await narrowComplianceToDemoRange(page);

  // Measured when print media starts, which Chromium signals after laying the page out for paper.
  await page.evaluate(() => {
    const print = window.matchMedia('print');
    const measure = () => {
      if (!print.matches) return;
      const width = document.documentElement.clientWidth;
      const report = document.querySelector('main')!;
      const name = (el: Element) => {
        const id = el.getAttribute('data-testid');
        const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
        return `<${el.localName}${cls}${id ? ` data-testid=${id}` : ''}>`;
      };
      const visible = (el: Element) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
      const all = [...report.querySelectorAll('*')].filter(visible);
      const past = all.filter((el) => el.getBoundingClientRect().right > width + 1);
      const clipped = all.filter((el) => {
        if (el.closest('.sr-only')) return false; // text for screen readers only, clipped on purpose
        const s = getComputedStyle(el);
        return s.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1;
      });
      const charts = [...report.querySelectorAll('.chart [role="img"]')].filter(visible).flatMap((box) => {
        const canvas = box.querySelector('canvas');
        const drawn = canvas ? canvas.width / window.devicePixelRatio : 0;
        return Math.abs(drawn - box.clientWidth) > 2
          ? [`${box.getAttribute('aria-label')?.slice(0, 40)}: drawn ${drawn} px wide in a ${box.clientWidth} px box`]
          : [];
      });
      (window as unknown as { __printLayout: PrintLayout }).__printLayout = {
        width,
        past: past
          .filter((el) => !past.some((o) => o !== el && o.contains(el)))
          .map((el) => `${name(el)} right edge at ${Math.round(el.getBoundingClientRect().right)} px`),
        clipped: clipped.map((el) => `${name(el)} shows ${el.clientWidth} of ${el.scrollWidth} px`),
        charts,
        shown: {
          nav: visible(document.querySelector('nav')!),
          controls: visible(document.querySelector('[data-testid="print-report"]')!),
          buttons: [...document.querySelectorAll('button')].filter(visible).length,
        },
      };
    };
    print.addEventListener('change', measure);
  });

  const pdf = await page.pdf({ format: 'A4', printBackground: true });
  const layout = await page.evaluate(() => (window as unknown as { __printLayout?: PrintLayout }).__printLayout);
  expect(layout, 'print media never started').toBeDefined();
  const file = testInfo.outputPath('compliance-demo-range.pdf');
  writeFileSync(file, pdf);

  // A4 is 210 mm wide; less 2 × 12 mm of margin that is 186 mm, 703 CSS px.
  expect(layout!.width).toBeGreaterThan(690);
  expect(layout!.width).toBeLessThanOrEqual(704);
  expect(layout!.past, `wider than the page:\n${layout!.past.join('\n')}`).toEqual([]);
  expect(layout!.clipped, `clipped:\n${layout!.clipped.join('\n')}`).toEqual([]);
  expect(layout!.charts, `charts not drawn at the page's width:\n${layout!.charts.join('\n')}`).toEqual([]);
  expect(layout!.shown).toEqual({ nav: false, controls: false, buttons: 0 });

  // The report's five sections after its scope: four pages of A4 for this range, not a page each.
  const pages = pdf.toString('latin1').match(/\/Type\s*\/Page\b/g)?.length ?? 0;
  expect(pages).toBeGreaterThanOrEqual(2);
  expect(pages).toBeLessThanOrEqual(5);

  // Pages as pictures to look at, where poppler is installed.
  if (existsSync('/usr/bin/pdftoppm')) execFileSync('/usr/bin/pdftoppm', ['-r', '60', '-png', file, testInfo.outputPath('compliance-demo-range-page')]);
});
