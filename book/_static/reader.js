/* The reader's page (see reader.css): a cue on blocks and equations that scroll sideways, and diagrams
   that a tap shows at their own size. */
const SCROLLING = "main pre, main mjx-container[display='true'], main div.math, main table.table";

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

async function readableWidth(image) {
  /* The width at which the diagram's smallest text (its SVG's smallest font size) is READABLE_PX tall:
     the SVG is in the browser's cache already. */
  const svg = await (await fetch(image.src)).text();
  const sizes = [...svg.matchAll(/font-size:\s*([\d.]+)px/g)].map((m) => parseFloat(m[1]));
  const viewBox = svg.match(/viewBox="\s*[-\d.]+\s+[-\d.]+\s+([\d.]+)/);
  if (!sizes.length || !viewBox) return image.naturalWidth;
  return Math.ceil(Math.max(image.naturalWidth, (READABLE_PX * parseFloat(viewBox[1])) / Math.min(...sizes)));
}

function enlargeOnTap(image) {
  const box = document.createElement("span");
  box.className = "diagram-box";
  box.style.display = "block";
  image.replaceWith(box);
  box.appendChild(image);
  image.classList.add("diagram");
  image.setAttribute("role", "button");
  image.setAttribute("tabindex", "0");
  image.setAttribute("aria-expanded", "false");
  const toggle = async () => {
    const enlarged = !box.classList.contains("enlarged");
    if (enlarged) image.style.setProperty("width", `${await readableWidth(image)}px`, "important");
    else image.style.removeProperty("width");
    box.classList.toggle("enlarged", enlarged);
    image.setAttribute("aria-expanded", String(enlarged));
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
  document.querySelectorAll("main article.bd-article img[src$='.svg']").forEach(enlargeOnTap);
  markAll();
  window.addEventListener("resize", markAll);
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) MathJax.startup.promise.then(markAll);
});
window.addEventListener("load", () => {
  markAll();
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) MathJax.startup.promise.then(markAll);
});
