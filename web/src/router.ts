import { useEffect, useState } from 'preact/hooks';

/**
 * A few lines of history-API routing, hand-written because the dashboard has a dozen flat routes:
 * links carry real paths (the server answers every client route with the app), and a click on
 * one is turned into pushState here.
 */
export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.dispatchEvent(new Event('posthorn:navigate'));
  window.scrollTo(0, 0);
}

export function usePath(): string {
  const [path, setPath] = useState(location.pathname + location.search);
  useEffect(() => {
    const update = (): void => setPath(location.pathname + location.search);
    window.addEventListener('popstate', update);
    window.addEventListener('posthorn:navigate', update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener('posthorn:navigate', update);
    };
  }, []);
  return path;
}

/** Internal links: plain clicks navigate in place; modified clicks (new tab) are left to the browser. */
export function onLinkClick(e: MouseEvent): void {
  const a = (e.target as Element).closest('a');
  if (a === null || a.origin !== location.origin || a.target !== '' || a.hasAttribute('download')) return;
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  if (a.pathname.startsWith('/v1/') || a.pathname.startsWith('/docs')) return;
  e.preventDefault();
  navigate(a.pathname + a.search);
}
