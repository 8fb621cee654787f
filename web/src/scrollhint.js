// "Scroll sideways" hints for wide tables: the hint shows only while the
// wrapper's content is wider than the wrapper, and says which way is left.

/**
 * Keep `hint` visible exactly while `wrap` overflows sideways; it also says
 * when the end has been reached. Returns update(), to call after the table changes.
 * words: {more(), back()} giving the two sentences in the page's language (else English).
 */
export function scrollHint(wrap, hint, words = null) {
  const update = () => {
    const overflow = wrap.scrollWidth - wrap.clientWidth > 1;
    hint.hidden = !overflow;
    wrap.classList.toggle("overflows", overflow);
    if (!overflow) return;
    const atEnd = wrap.scrollLeft + wrap.clientWidth >= wrap.scrollWidth - 1;
    if (words) {
      hint.textContent = atEnd ? words.back() : words.more();
      return;
    }
    hint.textContent = atEnd
      ? "← The table is wider than the page: scroll back for the first columns (the language stays pinned)."
      : "The table is wider than the page: scroll sideways → for more columns (the language stays pinned).";
  };
  new ResizeObserver(update).observe(wrap);
  wrap.addEventListener("scroll", update, { passive: true });
  return update;
}
