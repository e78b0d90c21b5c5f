/* The reader's page (see reader.css): a cue on blocks, formulas and tables that scroll sideways, and
   diagrams and result figures that a tap shows large enough to read. */
// The elements that scroll sideways when their content is wider: the theme wraps each table in a
// .pst-scrollable-table-container, and an inline formula's span.math scrolls (reader.css).
const SCROLLING = "main pre, main mjx-container[display='true'], main div.math, main span.math, " +
  "main .pst-scrollable-table-container, main .diagram-box";

function markScrolling(box) {
  const more = box.scrollWidth - box.clientWidth;
  box.classList.toggle("scrolls-right", more > 1 && box.scrollLeft < more - 1);
  box.classList.toggle("scrolls-left", more > 1 && box.scrollLeft > 1);
  if (more > 1 && !box.hasAttribute("tabindex")) box.tabIndex = 0;  // a keyboard scrolls it too
}

function markAll() {
  document.querySelectorAll(SCROLLING).forEach((box) => {
    if (!box.dataset.scrollCue) {
      box.dataset.scrollCue = "1";
      box.addEventListener("scroll", () => markScrolling(box), { passive: true });
    }
    markScrolling(box);
  });
}

const READABLE_PX = 10;  // the smallest label of an enlarged diagram, in CSS pixels

async function diagramWidth(image) {
  /* The width at which the diagram's smallest text (its SVG's smallest font size) is READABLE_PX tall:
     the SVG is in the browser's cache already. */
  const svg = await (await fetch(image.src)).text();
  const sizes = [...svg.matchAll(/font-size:\s*([\d.]+)px/g)].map((m) => parseFloat(m[1]));
  const viewBox = svg.match(/viewBox="\s*[-\d.]+\s+[-\d.]+\s+([\d.]+)/);
  if (!sizes.length || !viewBox) return image.naturalWidth;
  return Math.ceil(Math.max(image.naturalWidth, (READABLE_PX * parseFloat(viewBox[1])) / Math.min(...sizes)));
}

function figureWidth(image) {
  /* A result figure's own size, half its PNG's (drawn at 2x, book/make_pages.py): Matplotlib draws at 72 dpi,
     where its axis labels and ticks (10 pt) are 10 px. */
  return Math.ceil(image.naturalWidth / 2);
}

function markShrunk(box, readable) {
  /* The cue under an image shown smaller than it reads: "tap to enlarge", or once enlarged, how to go back. */
  const image = box.querySelector("img");
  const shrunk = image.getBoundingClientRect().width + 1 < readable;
  box.classList.toggle("shrunk", shrunk || box.classList.contains("enlarged"));
}

function enlargeOnTap(image, readableWidth) {
  const box = document.createElement("span");
  box.className = "diagram-box";
  box.style.display = "block";
  // Sphinx links a figure to its PNG, which a tap would open instead: the tap enlarges it in place.
  (image.closest("a.image-reference") || image).replaceWith(box);
  box.appendChild(image);
  const cue = document.createElement("span");
  cue.className = "enlarge-cue";
  cue.setAttribute("aria-hidden", "true");  // the image says so itself: a button, expanded or not
  box.appendChild(cue);
  image.classList.add("diagram");
  image.setAttribute("role", "button");
  image.setAttribute("tabindex", "0");
  image.setAttribute("aria-expanded", "false");
  let readable = null;
  const measure = async () => {
    readable = readable || await readableWidth(image);  // a diagram's is read from its file, once
    markShrunk(box, readable);
  };
  if (image.complete) measure(); else image.addEventListener("load", measure);
  window.addEventListener("resize", measure);
  const toggle = async () => {
    const enlarged = !box.classList.contains("enlarged");
    if (enlarged) image.style.setProperty("width", `${await readableWidth(image)}px`, "important");
    else image.style.removeProperty("width");
    box.classList.toggle("enlarged", enlarged);
    image.setAttribute("aria-expanded", String(enlarged));
    if (!enlarged) box.scrollLeft = 0;
    await measure();
    markScrolling(box);
  };
  image.addEventListener("click", toggle);
  image.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggle(); }
  });
}

function closeContentsOnTap() {
  /* On a phone the chapter's contents open over the text; a tap on a section takes the reader there, so
     the drawer closes (the theme leaves it open over the section). */
  const drawer = document.getElementById("pst-secondary-sidebar-checkbox");
  document.querySelectorAll(".bd-sidebar-secondary a[href^='#']").forEach((link) => {
    link.addEventListener("click", () => {
      if (drawer && drawer.checked) drawer.click();
    });
  });
}

document.addEventListener("DOMContentLoaded", () => {
  closeContentsOnTap();
  document.querySelectorAll("main article.bd-article img[src$='.svg']").forEach((i) => enlargeOnTap(i, diagramWidth));
  document.querySelectorAll("main article.bd-article .cell_output img[src$='.png']")
    .forEach((i) => enlargeOnTap(i, figureWidth));
  markAll();
  window.addEventListener("resize", markAll);
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) MathJax.startup.promise.then(markAll);
});
window.addEventListener("load", () => {
  markAll();
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) MathJax.startup.promise.then(markAll);
});
