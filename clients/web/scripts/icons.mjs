// Renders public/icon.svg to the PNG sizes the web manifest lists (browsers want PNGs to offer
// installation). Run after changing the SVG: `node scripts/icons.mjs`.
import { readFileSync } from "node:fs";
import { launchBrowser } from "../e2e/harness.mjs";

const svg = readFileSync(new URL("../public/icon.svg", import.meta.url), "utf8");
const browser = await launchBrowser();
for (const size of [192, 512]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(`<style>body{margin:0}svg{width:${size}px;height:${size}px;display:block}</style>${svg}`);
  await page.screenshot({ path: new URL(`../public/icon-${size}.png`, import.meta.url).pathname, omitBackground: true });
}
await browser.close();
