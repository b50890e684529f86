// Builds a rendered email's HTML into the preview frame (email-frame.tsx), as its own chunk.
//
// Hand-written around htmlparser2's tokenizer because the browser's own parsers cannot be used:
// the preview frame inherits the dashboard's Content-Security-Policy (`style-src 'self'`,
// `img-src 'self' data:`), and under it every HTML parser the page can reach (srcdoc, DOMParser,
// innerHTML, <template>) refuses the `style` attributes and `<style>` elements email HTML is
// made of, reporting a violation for each. Here the markup becomes elements made with
// createElement, and the styles are applied through the CSS object model (element.style and
// constructed stylesheets), which the policy allows, so the preview looks as the message will.
import { Parser } from 'htmlparser2';

/** Elements dropped with everything inside them: code, frames, plugins, and what a head holds that is not shown. */
const DROP_WITH_CONTENT = new Set([
  'script',
  'noscript',
  'template',
  'title',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
]);
/** Tags that add no element of their own: the document's own html, head and body stand for them. */
const TRANSPARENT = new Set(['html', 'head', 'body', 'meta', 'link', 'base']);
/** Attributes that would load something from elsewhere (refused by the policy) or run code. */
const DROPPED_ATTRIBUTES = new Set(['srcset', 'background', 'poster', 'formaction', 'action', 'ping', 'nonce']);

type Open = { kind: 'element'; element: Element } | { kind: 'skip' } | { kind: 'style' } | { kind: 'transparent' };

/** What was left out of the preview: images and fonts from other origins, which the dashboard never loads. */
export interface BuiltEmail {
  notLoaded: number;
}

const isRemote = (value: string): boolean => !/^\s*data:/i.test(value);
const remoteUrl = /url\(\s*(?!['"]?\s*data:)/i;

/** Removes declarations that would fetch from another origin (`url(https://…)`); returns how many. */
function dropRemoteUrls(style: CSSStyleDeclaration): number {
  let dropped = 0;
  for (let i = style.length - 1; i >= 0; i--) {
    const property = style.item(i);
    if (remoteUrl.test(style.getPropertyValue(property))) {
      style.removeProperty(property);
      dropped++;
    }
  }
  return dropped;
}

/** The same through a stylesheet's rules, into @media and @supports; @font-face and @import go. */
function cleanRules(rules: CSSRuleList, remove: (index: number) => void): number {
  let dropped = 0;
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (/^@(font-face|import)/i.test(rule.cssText)) {
      remove(i);
      dropped++;
      continue;
    }
    if ('style' in rule) dropped += dropRemoteUrls((rule as CSSStyleRule).style);
    if ('cssRules' in rule) {
      const group = rule as CSSGroupingRule;
      dropped += cleanRules(group.cssRules, (j) => group.deleteRule(j));
    }
  }
  return dropped;
}

/**
 * Replaces the content of `doc` (the preview frame's same-origin document) with `html`. Scripts,
 * event handler attributes, frames and plugins are left out (the frame's sandbox would not run
 * them anyway); links open nothing (the sandbox allows no navigation away or popup).
 */
export function fillEmailDocument(doc: Document, html: string): BuiltEmail {
  const win = doc.defaultView;
  if (win === null) throw new Error('the preview frame has no window');
  const root = doc.documentElement;
  for (const name of root.getAttributeNames()) root.removeAttribute(name);
  const body = doc.createElement('body');
  root.replaceChildren(doc.createElement('head'), body);
  let notLoaded = 0;
  let css = '';
  const stack: Open[] = [];
  const parent = (): Element => {
    for (let i = stack.length - 1; i >= 0; i--) {
      const open = stack[i]!;
      if (open.kind === 'element') return open.element;
    }
    return body;
  };
  const applyAttributes = (element: Element, attribs: Record<string, string>): void => {
    for (const [raw, value] of Object.entries(attribs)) {
      const name = raw.toLowerCase();
      if (name.startsWith('on') || DROPPED_ATTRIBUTES.has(name)) {
        if (name === 'background' || name === 'srcset' || name === 'poster') notLoaded++;
        continue;
      }
      if (name === 'style') {
        (element as HTMLElement).style.cssText = value;
        notLoaded += dropRemoteUrls((element as HTMLElement).style);
        continue;
      }
      if (name === 'src' && isRemote(value)) {
        notLoaded++;
        continue;
      }
      try {
        element.setAttribute(name, value);
      } catch {
        // A name the DOM does not accept (a stray character in the markup): browsers skip it too.
      }
    }
    if (element.localName === 'a') element.setAttribute('target', '_blank');
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const top = stack[stack.length - 1];
        if (top?.kind === 'skip' || top?.kind === 'style' || DROP_WITH_CONTENT.has(name)) {
          stack.push({ kind: 'skip' });
        } else if (name === 'style') {
          stack.push({ kind: 'style' });
        } else if (TRANSPARENT.has(name)) {
          if (name === 'html') {
            for (const a of ['lang', 'dir'])
              if (attribs[a] !== undefined) applyAttributes(root, { [a]: attribs[a] as string });
          }
          if (name === 'body') applyAttributes(body, attribs);
          stack.push({ kind: 'transparent' });
        } else {
          let element: Element;
          try {
            element = doc.createElement(name);
          } catch {
            stack.push({ kind: 'skip' });
            return;
          }
          applyAttributes(element, attribs);
          parent().appendChild(element);
          stack.push({ kind: 'element', element });
        }
      },
      onclosetag() {
        stack.pop();
      },
      ontext(text) {
        const top = stack[stack.length - 1];
        if (top?.kind === 'style') css += text;
        else if (top?.kind !== 'skip') parent().appendChild(doc.createTextNode(text));
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);

  const sheet = new win.CSSStyleSheet();
  try {
    sheet.replaceSync(css);
  } catch {
    // replaceSync refuses nothing it can parse around; an unparsable sheet is left out, as a browser would.
  }
  notLoaded += cleanRules(sheet.cssRules, (i) => sheet.deleteRule(i));
  doc.adoptedStyleSheets = [sheet];
  return { notLoaded };
}
