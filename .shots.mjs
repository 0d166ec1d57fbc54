import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:3200';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
async function shot(name, width, scheme, fn) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme === 'dark' ? 'dark' : 'light' });
  const page = await ctx.newPage();
  await fn(page);
  if (scheme === 'print') await page.emulateMedia({ media: 'print' });
  await page.waitForTimeout(800);
  await page.screenshot({ path: `/tmp/shots/${name}-${width}-${scheme}.png`, fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  console.log(name, width, scheme, 'horizontal overflow', overflow);
  await ctx.close();
}
const overview = async (page) => { await page.goto(base + '/'); await page.getByTestId('verify-summary').waitFor({ timeout: 90000 }); };
const envelope = async (page) => {
  await overview(page);
  await page.getByTestId('source-input').setInputFiles(['data/demo/claude-code-session.jsonl']);
  await page.locator('[data-testid="verify-summary"][data-source="1 file"][data-done="true"]').waitFor({ timeout: 90000 });
  await page.getByRole('link', { name: 'Receipts', exact: true }).click();
  const row = page.locator('[data-receipt-id]').first();
  await row.waitFor({ timeout: 60000 });
  await row.click();
  await page.getByTestId('receipt-verdict').waitFor({ timeout: 60000 });
};
const v2receipt = async (page) => {
  await overview(page);
  await page.goto(base + '/receipts?generation=B');
  const row = page.locator('[data-receipt-id]').nth(5);
  await row.waitFor({ timeout: 60000 });
  await row.click();
  await page.getByTestId('receipt-verdict').waitFor({ timeout: 60000 });
  await page.getByTestId('merkle-path').waitFor({ timeout: 60000 }).catch(() => {});
};
const dag = async (page) => { await overview(page); await page.goto(base + '/dag'); await page.waitForTimeout(6000); };
const which = process.argv[2] ?? 'all';
const jobs = { overview, envelope, v2receipt, dag };
for (const [name, fn] of Object.entries(jobs)) {
  if (which !== 'all' && which !== name) continue;
  for (const [w, s] of [[1440, 'light'], [390, 'light'], [1440, 'dark'], [1440, 'print']]) await shot(name, w, s, fn);
}
await browser.close();
