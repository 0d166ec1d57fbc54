// usage: node shoot.mjs <outprefix> <path> [width] [dark] [setup]
import { chromium } from '@playwright/test';
const [,, out, path, width = '1440', dark = '', files = ''] = process.argv;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const ctx = await browser.newContext({ viewport: { width: Number(width), height: 900 }, colorScheme: dark ? 'dark' : 'light',
  storageState: process.env.NOPIN ? undefined : { cookies: [], origins: [{ origin: 'http://127.0.0.1:3200', localStorage: [{ name: 'receipt-audit.trust.v1', value: JSON.stringify([{ key: '4e9f3e296bcc79b5ecdc26b6db814637fb1184d5e0162afdac7a9a3e7fb60f17' }, { key: 'd04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737' }]) }] }] } });
const page = await ctx.newPage();
await page.goto('http://127.0.0.1:3200/');
await page.waitForSelector('[data-testid=verify-summary][data-done=true]', { timeout: 90000 });
if (files) {
  await page.getByTestId('source-input').setInputFiles(files.split(','));
  await page.waitForTimeout(500);
  await page.waitForSelector('[data-testid=verify-summary][data-done=true]', { timeout: 90000 });
}
if (path !== '/') { await page.getByRole('link', { name: path }).first().click(); await page.waitForTimeout(2500); }
if (process.env.SCROLL) { await page.locator(process.env.SCROLL).first().scrollIntoViewIfNeeded(); await page.evaluate(() => window.scrollBy(0, -80)); }
if (process.env.RELOAD) { await page.reload(); await page.waitForTimeout(2500); }
await page.screenshot({ path: `${out}.png`, fullPage: process.env.FULL === '1' });
console.log('scrollWidth', await page.evaluate(() => document.documentElement.scrollWidth));
await browser.close();
