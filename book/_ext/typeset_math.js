// Typesets TeX as MathJax's CommonHTML under Node, for offline_math.py: the same MathJax the pages would load
// (the es5 components of the pinned PyPI package django-static-mathjax), run once per build instead of once
// per reader.
//
// Usage: node typeset_math.js <MathJax's es5 folder> <scale>
// Reads one page a line on stdin, {"formulas": [[tex, display], ...]}, and writes one line back,
// {"html": [<mjx-container> for each formula], "css": the style sheet of exactly those formulas}.
const readline = require("readline");

const [es5, scale] = process.argv.slice(2);
globalThis.MathJax = {
  loader: {paths: {mathjax: es5}, require: require,
           load: ["adaptors/liteDOM", "input/tex", "output/chtml", "a11y/assistive-mml"]},
  // fontURL is a placeholder: offline_math.py writes in the fonts' path from each page
  chtml: {fontURL: "MATHJAX-FONTS", scale: Number(scale)},
  startup: {typeset: false},
};
require(`${es5}/startup.js`);

MathJax.startup.promise.then(() => {
  const adaptor = MathJax.startup.adaptor;
  const lines = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
  let pages = Promise.resolve();  // one page after another, in the order they came
  lines.on("line", (line) => {
    pages = pages.then(async () => {
      MathJax.startup.output.clearCache();  // the style sheet then holds this page's characters only
      const html = [];
      for (const [tex, display] of JSON.parse(line).formulas) {
        // the promise waits for the TeX extensions a formula needs (\boldsymbol, \cancel, ...), loaded on demand
        html.push(adaptor.outerHTML(await MathJax.tex2chtmlPromise(tex, {display})));
      }
      const css = adaptor.textContent(MathJax.chtmlStylesheet());
      process.stdout.write(JSON.stringify({html, css}) + "\n");
    });
  });
});
