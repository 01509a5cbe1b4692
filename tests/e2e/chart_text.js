// Chart text as the canvases drew it: an init script logs every fillText (its text, font and the box
// it covers on the page), so tests can read the font size a chart used and check that labels do
// not overlap. The log of a canvas starts again whenever its background is filled whole (a redraw).
const { expect } = require('@playwright/test');

/** Runs in the page before the app: wraps CanvasRenderingContext2D.fillText and fillRect. */
function logChartText() {
  const proto = CanvasRenderingContext2D.prototype;
  const fillText = proto.fillText;
  const fillRect = proto.fillRect;
  window.__chartText = new Map();
  proto.fillRect = function (x, y, w, h) {
    const c = this.canvas;
    if (c && c.id && x <= 0 && y <= 0 && w >= c.width && h >= c.height) window.__chartText.set(c.id, []);
    return fillRect.apply(this, arguments);
  };
  proto.fillText = function (text, x, y) {
    const c = this.canvas;
    if (c && c.id) {
      const m = this.measureText(text);
      const left = x - m.actualBoundingBoxLeft;
      const right = x + m.actualBoundingBoxRight;
      const top = y - m.actualBoundingBoxAscent;
      const bottom = y + m.actualBoundingBoxDescent;
      const t = this.getTransform();
      const corners = [[left, top], [right, top], [left, bottom], [right, bottom]]
        .map(([px, py]) => [t.a * px + t.c * py + t.e, t.b * px + t.d * py + t.f]);
      const xs = corners.map((p) => p[0]);
      const ys = corners.map((p) => p[1]);
      const size = Number((/([\d.]+)px/.exec(this.font) || [0, 0])[1]);
      const list = window.__chartText.get(c.id) || [];
      list.push({ text: String(text), size, box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] });
      window.__chartText.set(c.id, list);
    }
    return fillText.apply(this, arguments);
  };
}

/** The text canvas `id` drew last, each with its font size in CSS px and its box on the page. */
async function chartText(page, id) {
  return page.evaluate((canvasId) => {
    const c = document.getElementById(canvasId);
    const list = (window.__chartText && window.__chartText.get(canvasId)) || [];
    if (!c || c.width === 0) return [];
    const r = c.getBoundingClientRect();
    const k = r.width / c.width;
    return list.map((t) => ({
      text: t.text,
      px: t.size * k,
      box: { left: r.left + t.box[0] * k, top: r.top + t.box[1] * k, right: r.left + t.box[2] * k, bottom: r.top + t.box[3] * k },
    }));
  }, id);
}

/** Whether two boxes overlap by more than `slack` CSS px each way. */
function overlaps(a, b, slack = 0.5) {
  return a.left < b.right - slack && b.left < a.right - slack && a.top < b.bottom - slack && b.top < a.bottom - slack;
}

/** Every pair of `texts` whose boxes overlap, as "a / b" strings. */
function collisions(texts) {
  const hits = [];
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      if (texts[i].text.trim() && texts[j].text.trim() && overlaps(texts[i].box, texts[j].box)) {
        hits.push(`${texts[i].text} / ${texts[j].text}`);
      }
    }
  }
  return hits;
}

/** Whether `inner` lies inside `outer` (both with left/top/right/bottom), to `slack` px. */
function inside(inner, outer, slack = 0.5) {
  return inner.left >= outer.left - slack && inner.top >= outer.top - slack
    && inner.right <= outer.right + slack && inner.bottom <= outer.bottom + slack;
}

/** Waits until canvas `id` has logged some text. */
async function waitForChartText(page, id) {
  await expect.poll(async () => (await chartText(page, id)).length, { timeout: 15_000 }).toBeGreaterThan(3);
}

module.exports = { logChartText, chartText, collisions, inside, overlaps, waitForChartText };
