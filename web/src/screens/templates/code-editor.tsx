import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../../api';
import { ErrorText } from '../../ui';
import type { EditorLanguage, MountedEditor } from './codemirror';

/**
 * A labelled code editor with syntax highlighting (CodeMirror 6, codemirror.ts, fetched as its own
 * chunk the first time one is shown) and the API's error for its field under it.
 *
 * The editor lives in a shadow root: CodeMirror injects its styles into the document as a `<style>`
 * element, which the dashboard's Content-Security-Policy (`style-src 'self'`) refuses, but into a
 * shadow root as constructed stylesheets (adoptedStyleSheets), which the policy allows.
 */
export function CodeEditor(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  language: EditorLanguage;
  readOnly?: boolean;
  error?: ApiError | null;
  /** The API's `field` whose errors show here. */
  field: string;
  hint?: string;
}) {
  const id = useId();
  const host = useRef<HTMLDivElement>(null);
  const errorBox = useRef<HTMLDivElement>(null);
  const editor = useRef<MountedEditor | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const [state, setState] = useState<'loading' | 'ready' | Error>('loading');

  useEffect(() => {
    let live = true;
    import('./codemirror').then(
      ({ mountEditor }) => {
        if (!live || host.current === null) return;
        const root = host.current.shadowRoot ?? host.current.attachShadow({ mode: 'open' });
        editor.current = mountEditor(root, {
          value: props.value,
          label: props.label,
          language: props.language,
          readOnly: props.readOnly === true,
          onChange: (v) => onChange.current(v),
        });
        setState('ready');
      },
      (err: unknown) => live && setState(err instanceof Error ? err : new Error(String(err))),
    );
    return () => {
      live = false;
      editor.current?.destroy();
      editor.current = null;
    };
  }, [props.language, props.readOnly, props.label]);

  useEffect(() => editor.current?.setValue(props.value), [props.value, state]);

  const invalid = props.error?.field === props.field;
  useEffect(() => {
    editor.current?.setInvalid(invalid ? (errorBox.current?.querySelector<HTMLElement>('.error') ?? null) : null);
  }, [invalid, props.error, state]);

  return (
    <div class="field code-field">
      <span class="label" id={id} onClick={() => editor.current?.focus()}>
        {props.label}
      </span>
      <div ref={host} class="code-host" data-field={props.field} />
      {state === 'loading' ? (
        <p class="muted" role="status">
          Loading the editor…
        </p>
      ) : null}
      {state instanceof Error ? (
        <p class="error" role="alert">
          The editor could not load: {state.message}. Reload the page to try again.
        </p>
      ) : null}
      {props.hint ? <small class="muted">{props.hint}</small> : null}
      <div ref={errorBox}>
        <ErrorText error={props.error ?? null} field={props.field} id={`${id}-error`} />
      </div>
    </div>
  );
}
