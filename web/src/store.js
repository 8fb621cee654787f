// A small store: one state object, shallow-merged updates, a "change" event.
// Views subscribe and re-render from the state they are given.

/**
 * Draw a view from the store: `render(store.state)` after the store changes, at most once an
 * animation frame, with the state as it is when the frame comes. Returns the unsubscribe function.
 * @param {{state: object, subscribe: (fn: (state: object) => void) => () => void}} store
 * @param {(state: object) => void} render
 * @returns {() => void}
 */
export function renderOnFrames(store, render) {
  let frame = 0;
  return store.subscribe(() => {
    if (!frame)
      frame = requestAnimationFrame(() => {
        frame = 0;
        render(store.state);
      });
  });
}

export function createStore(initial) {
  let state = initial;
  const target = new EventTarget();
  return {
    get state() {
      return state;
    },
    /** Merge `patch` (an object, or a function of the state returning one) into the state. */
    set(patch) {
      const p = typeof patch === "function" ? patch(state) : patch;
      state = { ...state, ...p };
      target.dispatchEvent(new CustomEvent("change", { detail: state }));
    },
    /** Merge `patch` into one slice (e.g. "train") of the state. */
    update(slice, patch) {
      this.set((s) => ({ [slice]: { ...s[slice], ...(typeof patch === "function" ? patch(s[slice]) : patch) } }));
    },
    subscribe(fn) {
      const listener = (e) => fn(e.detail);
      target.addEventListener("change", listener);
      return () => target.removeEventListener("change", listener);
    },
  };
}
