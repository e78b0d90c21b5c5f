/* The search's ranking (Sphinx's html_search_scorer): Sphinx's own weights, and a chapter ranks above the
   API reference, whose every documented name matches a word of the query ("softmax" finds chapter 02,
   which teaches it, before seqmodels' functions named after it). */
var Scorer = {
  score: (result) => {
    const [docname, , , , score] = result;
    return docname.startsWith("book/chapters/") ? score + CHAPTER_BONUS : score;
  },
  // Sphinx's defaults (searchtools.js)
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: { 0: 15, 1: 5, 2: -5 },
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,
};
const CHAPTER_BONUS = 30;  // more than an object's best match (11 + 15): a chapter that names the term comes first
