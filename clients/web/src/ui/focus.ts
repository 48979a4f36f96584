// Focus that stays where the person was: when what has the focus leaves the page (the button of
// an action no longer offered once it is done, a card that moved), it goes to what is still there
// nearest to it, rather than to nothing (the page's top, for a keyboard or a screen reader).
import { useEffect, type RefObject } from "react";

const FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, [tabindex]";

/** Keeps the focus inside `container` when the element that had it is removed from it. */
export function useFocusKeeper(container: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const root = container.current;
    if (!root) return;
    // The focused element and its ancestors up to the container, nearest first.
    let trail: Element[] = [];
    const remember = (event: FocusEvent) => {
      trail = [];
      for (let el = event.target as Element | null; el && el !== root; el = el.parentElement) trail.push(el);
    };
    const observer = new MutationObserver(() => {
      if (document.activeElement !== document.body || trail.length === 0 || trail[0].isConnected) return;
      // A virtual list (a run's log) drops what scrolled away; the reader is still there.
      if (trail.some((el) => el.matches("[data-virtual]"))) return;
      // Its nearest part still there: the first control shown in it (a closed dialog's are not),
      // or that part itself if it can hold the focus. None below the container means the whole
      // page changed, which gives the focus to the new page itself (App.tsx).
      const shown = (el: HTMLElement) => el.checkVisibility();
      const target = trail
        .filter((el): el is HTMLElement => el.isConnected && el instanceof HTMLElement)
        .map((el) => [...el.querySelectorAll<HTMLElement>(FOCUSABLE)].find(shown) ?? (el.matches("[tabindex]") ? el : undefined))
        .find(Boolean);
      trail = [];
      target?.focus();
    });
    root.addEventListener("focusin", remember);
    observer.observe(root, { childList: true, subtree: true });
    return () => {
      root.removeEventListener("focusin", remember);
      observer.disconnect();
    };
  }, [container]);
}
