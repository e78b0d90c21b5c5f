/* Search results quote a snippet of each page's text, where formulas are still TeX source
   ("\mathbf{e}_{i,d}"). Before Sphinx's search (searchtools.js) cuts a snippet, this writes every
   formula of the page as plain text ("e_i,d"), so a reader sees no markup, and leaves out what is
   not the page's text: its header and its list of sections (where the searched word is often first). */
const NOT_TEXT = ".bd-header-article, .bd-sidebar-secondary, .prev-next-area, .bd-footer-article, nav";
const PLAIN_TEX = {
  alpha: "α", beta: "β", gamma: "γ", delta: "δ", epsilon: "ε", varepsilon: "ε", eta: "η", theta: "θ",
  lambda: "λ", mu: "μ", pi: "π", rho: "ρ", sigma: "σ", tau: "τ", phi: "φ", psi: "ψ", omega: "ω",
  Delta: "Δ", Sigma: "Σ", Pi: "Π", sum: "Σ", prod: "Π", infty: "∞", le: "≤", leq: "≤", ge: "≥",
  geq: "≥", ne: "≠", neq: "≠", approx: "≈", times: "×", cdot: "·", odot: "⊙", oplus: "⊕", in: "∈",
  to: "→", rightarrow: "→", leftarrow: "←", Longrightarrow: "⇒", mid: "|", dots: "…", ldots: "…",
  cdots: "…", partial: "∂", nabla: "∇", sqrt: "√", pm: "±", langle: "⟨", rangle: "⟩", top: "ᵀ",
  log: "log", exp: "exp", max: "max", min: "min", arg: "arg", tanh: "tanh", cos: "cos", sin: "sin",
};

function plainMath(tex) {
  return tex
    .replace(/^\s*(\\\(|\\\[|\$\$?)|(\\\)|\\\]|\$\$?)\s*$/g, "")
    .replace(/\\mathbb\{R\}/g, "ℝ")
    .replace(/\\d?frac\{([^{}]*)\}\{([^{}]*)\}/g, "($1)/($2)")
    .replace(/\\([A-Za-z]+)/g, (_, name) => PLAIN_TEX[name] ?? "")
    .replace(/\\[,;:! ]|~/g, " ")
    .replace(/\\\\|[{}]|&/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

document.addEventListener("DOMContentLoaded", () => {
  if (typeof Search === "undefined") return;  // not the search page
  const htmlToText = Search.htmlToText;
  Search.htmlToText = (html, anchor) => {
    const page = new DOMParser().parseFromString(html, "text/html");
    page.querySelectorAll(NOT_TEXT).forEach((part) => part.remove());
    page.querySelectorAll(".math").forEach((formula) => { formula.textContent = plainMath(formula.textContent); });
    return htmlToText(page.documentElement.outerHTML, anchor);
  };
});
