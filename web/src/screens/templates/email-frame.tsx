import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A rendered email's HTML in a sandboxed frame. The sandbox has no `allow-scripts`: nothing in the
 * message can run, submit a form, open a window or navigate the dashboard. It has
 * `allow-same-origin` so the dashboard can build the document in it (email-document.ts says why
 * the browser's parsers cannot be used under the dashboard's Content-Security-Policy); with
 * scripts off in the frame, that gives the message no way to reach the dashboard.
 */
export function EmailFrame({ html, title }: { html: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [notLoaded, setNotLoaded] = useState(0);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    import('./email-document').then(
      ({ fillEmailDocument }) => {
        const el = frame.current;
        const doc = el?.contentDocument;
        if (!live || !el || !doc) return;
        setNotLoaded(fillEmailDocument(doc, html).notLoaded);
        setFailed(null);
        // As tall as the message (CSSOM, which the policy allows), within reason: longer ones scroll inside.
        const height = Math.min(Math.max(doc.documentElement.scrollHeight, 160), 1400);
        el.style.setProperty('height', `${height}px`);
      },
      (err: unknown) => live && setFailed(err instanceof Error ? err.message : String(err)),
    );
    return () => {
      live = false;
    };
  }, [html]);
  return (
    <>
      <iframe ref={frame} class="email-frame" title={title} sandbox="allow-same-origin" />
      {failed !== null ? (
        <p class="error" role="alert">
          The preview could not be shown: {failed}
        </p>
      ) : null}
      {notLoaded > 0 ? (
        <p class="muted">
          {notLoaded === 1
            ? 'One image or font from elsewhere is not loaded here'
            : `${notLoaded} images or fonts from elsewhere are not loaded here`}
          : the dashboard loads nothing from other sites (inline <code>data:</code> images are shown).
        </p>
      ) : null}
    </>
  );
}
