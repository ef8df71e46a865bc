// Screenshot of a stored walk in Neo4j Browser (how docs/img/browser-walk.png was made).
// Needs Debian's chromium and `npm install playwright-core` (neither is a project dependency):
//   node scripts/browser-screenshot.js "MATCH p = (w:Walk {id: '<id>'})-[:FIRST_STEP|NEXT*]->(s:Step)
//        OPTIONAL MATCH a = (s)-[:AT|CHOSE]->(:Entity) RETURN p, a" out.png
const { chromium } = require('playwright-core');
(async () => {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto('http://127.0.0.1:7474/browser/?dbms=neo4j://neo4j@127.0.0.1:7687&db=neo4j');
  await page.waitForSelector('input[data-testid="password"]', { timeout: 30000 });
  await page.fill('input[data-testid="password"]', 'graphwalk-local');
  await page.click('button[data-testid="connect"]');
  await page.waitForTimeout(4000);
  const q = process.argv[2];
  const editor = page.locator('.monaco-editor textarea').first();
  await editor.click();
  await page.keyboard.insertText(q);
  await page.keyboard.press('Control+Enter');
  await page.waitForTimeout(6000);
  await page.screenshot({ path: process.argv[3] });
  await browser.close();
})().catch(e => { console.error(e); process.exit(1); });
