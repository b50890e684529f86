// The template editor (docs/dashboard.md, Templates): CodeMirror 6, loaded as its own chunk by
// code-editor.tsx so the rest of the dashboard does not carry it.
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  MatchDecorator,
  ViewPlugin,
  drawSelection,
  highlightActiveLine,
  keymap,
  lineNumbers,
  type DecorationSet,
  type ViewUpdate,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { LRLanguage, bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { json } from '@codemirror/lang-json';
import { parser as htmlParser } from '@lezer/html';

export type EditorLanguage = 'html' | 'text' | 'json';

/**
 * HTML from the Lezer grammar alone, not @codemirror/lang-html: that one brings the CSS and
 * JavaScript languages (and autocompletion) for `<style>` and `<script>`, several times the size
 * of the rest of the editor, for highlighting inside tags an email mostly keeps in attributes.
 */
const htmlLanguage = LRLanguage.define({ name: 'html', parser: htmlParser });

/** What code-editor.tsx keeps of a mounted editor. */
export interface MountedEditor {
  setValue(value: string): void;
  /** The error now shown for this part (aria-invalid, and the element that says it). */
  setInvalid(error: HTMLElement | null): void;
  focus(): void;
  destroy(): void;
}

/**
 * Handlebars tags (`{{name}}`, `{{{raw}}}`, `{{#each …}}`, `{{/each}}`, comments) marked over the
 * language's own highlighting: the html mode knows nothing of them, and the few tag forms
 * templates may use (docs/templates.md, Syntax) need no grammar of their own to stand out.
 */
const handlebarsTags = new MatchDecorator({
  regexp: /\{\{\{?[\s\S]*?\}?\}\}/g,
  decoration: (m) =>
    Decoration.mark({
      class: /^\{\{[~]?[#/^]|^\{\{[~]?else\b/.test(m[0]) ? 'cm-hbs cm-hbs-block' : 'cm-hbs',
    }),
});
const handlebars = ViewPlugin.fromClass(
  class {
    tags: DecorationSet;
    constructor(view: EditorView) {
      this.tags = handlebarsTags.createDeco(view);
    }
    update(update: ViewUpdate) {
      this.tags = handlebarsTags.updateDeco(update, this.tags);
    }
  },
  { decorations: (v) => v.tags },
);

/**
 * Colours chosen for contrast on white (WCAG AA, checked by axe in the browser tests). Themes are
 * StyleModules: CodeMirror adopts them as constructed stylesheets on the editor's shadow root
 * (code-editor.tsx), which the dashboard's `style-src 'self'` allows.
 */
const theme = EditorView.theme({
  '&': {
    border: '1px solid #8c959f',
    borderRadius: '6px',
    backgroundColor: '#fff',
    color: '#1b1f24',
    fontSize: '13px',
  },
  '&.cm-focused': { outline: '3px solid #4d90fe', outlineOffset: '1px' },
  '.cm-scroller': {
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    lineHeight: '1.5',
    minHeight: '6em',
    maxHeight: '28em',
  },
  '.cm-gutters': { backgroundColor: '#f6f8fa', color: '#57606a', borderRight: '1px solid #d8dee4' },
  '.cm-activeLine': { backgroundColor: '#f6f8fa' },
  '.cm-hbs': { color: '#7d2a00', backgroundColor: '#fff1e0', borderRadius: '3px' },
  '.cm-hbs-block': { fontWeight: '600' },
  '&[data-invalid]': { borderColor: '#a40e26', borderWidth: '2px' },
});

/**
 * Mounts an editor in `root` (a shadow root: code-editor.tsx says why). Tab is left to move the
 * focus on, so the editor never traps a keyboard user; the content element carries the label
 * (`aria-label`: an aria-labelledby could not reach a label outside the shadow root).
 */
export function mountEditor(
  root: ShadowRoot,
  opts: {
    value: string;
    label: string;
    language: EditorLanguage;
    readOnly: boolean;
    onChange: (value: string) => void;
  },
): MountedEditor {
  const parent = document.createElement('div');
  root.appendChild(parent);
  const invalid = new Compartment();
  const language: Extension = opts.language === 'html' ? htmlLanguage : opts.language === 'json' ? json() : [];
  let applying = false;
  const view = new EditorView({
    root,
    parent,
    state: EditorState.create({
      doc: opts.value,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        bracketMatching(),
        EditorView.lineWrapping,
        language,
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        opts.language === 'json' ? [] : handlebars,
        keymap.of([...defaultKeymap, ...historyKeymap]),
        EditorState.readOnly.of(opts.readOnly),
        EditorView.contentAttributes.of({ 'aria-label': opts.label }),
        invalid.of([]),
        theme,
        EditorView.updateListener.of((u) => {
          if (u.docChanged && !applying) opts.onChange(u.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    setValue(value) {
      if (view.state.doc.toString() === value) return;
      applying = true;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value } });
      applying = false;
    },
    setInvalid(error) {
      view.dispatch({
        effects: invalid.reconfigure(
          error === null
            ? []
            : [
                EditorView.contentAttributes.of({ 'aria-invalid': 'true' }),
                EditorView.editorAttributes.of({ 'data-invalid': '' }),
              ],
        ),
      });
      // The error is outside the shadow root, where an id reference cannot reach: the element
      // reference does (ARIA reflection), so a screen reader reads the error with the field.
      (view.contentDOM as HTMLElement & { ariaDescribedByElements: Element[] | null }).ariaDescribedByElements =
        error === null ? null : [error];
    },
    focus() {
      view.focus();
    },
    destroy() {
      view.destroy();
      parent.remove();
    },
  };
}
