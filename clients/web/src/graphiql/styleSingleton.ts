// Stands in for the npm package `react-style-singleton` (see vite.config.ts), which GraphiQL's
// dialogs reach through Radix and react-remove-scroll to lock the page's scrolling. The package
// adds a <style> element, which the server's `style-src 'self'` refuses; this adds the same rules
// as a constructed stylesheet (CSSOM), which the policy allows, so GraphiQL needs no
// 'unsafe-inline'. Same exports, same behaviour: the rules apply while any user is mounted.
import { useEffect } from "react";

export function stylesheetSingleton() {
  let users = 0;
  let sheet: CSSStyleSheet | null = null;
  return {
    add(styles: string) {
      if (users === 0) {
        sheet = new CSSStyleSheet();
        sheet.replaceSync(styles);
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      }
      users += 1;
    },
    remove() {
      users -= 1;
      if (users === 0 && sheet) {
        const added = sheet;
        document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== added);
        sheet = null;
      }
    },
  };
}

export function styleHookSingleton() {
  const sheet = stylesheetSingleton();
  return (styles: string, isDynamic?: boolean) => {
    useEffect(() => {
      sheet.add(styles);
      return () => sheet.remove();
      // As the original: the rules change only when they are declared dynamic.
    }, [styles && isDynamic]);
  };
}

export function styleSingleton() {
  const useStyle = styleHookSingleton();
  return function Sheet({ styles, dynamic }: { styles: string; dynamic?: boolean }) {
    useStyle(styles, dynamic);
    return null;
  };
}
