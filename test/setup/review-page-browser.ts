import axe from 'axe-core';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

/** Debian's Chromium, installed by .ci/run when missing; never a browser downloaded by Playwright. */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const describeWithChromium = existsSync(CHROMIUM)
  ? describe
  : (name: string, body: () => void) => describe.skip(`${name} [skipped: ${CHROMIUM} is missing; install Debian's chromium, as .ci/run does]`, body);

/** Where the review page tests write a screenshot of each screen (git-ignored; see docs/development.md). */
export const SCREENSHOTS = join(__dirname, '..', 'e2e', 'artifacts', 'review-page');

/** Script errors and console errors of a page (the browser's own favicon request aside). */
export function problemsOf(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) problems.push(message.text());
  });
  return problems;
}

/** A new tab of its own (its own session storage, so its own sign-in) on the review page. */
export async function openReviewPage(browser: Browser, base: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const response = await page.goto(`${base}/review`);
  if (response?.status() !== 200) throw new Error(`GET /review answered ${response?.status()}`);
  return page;
}

/** Signs in with a development token, by keyboard, and waits for the queue. */
export async function signInWithToken(page: Page, token: string): Promise<void> {
  await page.getByLabel('Access token').fill(token);
  await page.getByLabel('Access token').press('Enter');
  await page.locator('#workspace').waitFor();
}

/** A violation axe-core found, in a line a failing assertion can show. */
type Violation = { id: string; impact: string; help: string; targets: string[] };

/**
 * Runs axe-core in the page as it is now and returns its serious and critical violations (moderate
 * and minor ones are advice). The page's CSP forbids inline script, so axe is evaluated through
 * the browser's debugging protocol rather than added as a script tag.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axe.source);
  const violations = (await page.evaluate(`window.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) })))`)) as Violation[];
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/** Writes a full-page screenshot of the screen as `<name>.png` into `folder` (SCREENSHOTS unless a test file keeps its own). */
export async function screenshot(page: Page, name: string, folder = SCREENSHOTS): Promise<void> {
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`), fullPage: true });
}

/** One screen checked: no serious or critical axe violation, and its screenshot written. */
export async function checkScreen(page: Page, name: string, folder = SCREENSHOTS): Promise<void> {
  await screenshot(page, name, folder);
  expect({ screen: name, violations: await seriousViolations(page) }).toEqual({ screen: name, violations: [] });
}
